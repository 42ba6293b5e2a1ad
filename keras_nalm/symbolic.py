"""Symbolic expressions for reading the learned arithmetic off the weights.

`keras_nalm.describe` feeds input variables through a stack of units; each
unit maps its input expressions to output expressions with its weights
rounded to their discrete values ({-1, 0, 1} or {0, 1}). Sums and products
are flattened and like terms combined, so that an NAU followed by an NMU
prints as `(x1 + x2) * (x1 + x2 + x3 + x4)`.
"""

import dataclasses

import numpy as np


def _format_number(value):
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.4g}"


@dataclasses.dataclass(frozen=True)
class Var:
    name: str
    order: int

    def __str__(self):
        return self.name


@dataclasses.dataclass(frozen=True)
class Const:
    value: float

    def __str__(self):
        return _format_number(self.value)


@dataclasses.dataclass(frozen=True)
class Opaque:
    """An expression printed verbatim, e.g. a gated mixture of two branches."""

    text: str

    def __str__(self):
        return self.text


def _variable_orders(expr):
    if isinstance(expr, Var):
        return (expr.order,)
    parts = getattr(expr, "terms", None) or getattr(expr, "factors", None) or ()
    return tuple(sorted({o for atom, _ in parts for o in _variable_orders(atom)}))


def _sort_key(atom):
    """Orders terms and factors by the inputs they use: x1 before x1 * x2
    before x3; other expressions last."""
    orders = _variable_orders(atom)
    return (0 if orders else 1, orders, str(atom))


@dataclasses.dataclass(frozen=True)
class Sum:
    """sum_k coef_k * atom_k + const, atoms being Var, Product or Opaque."""

    terms: tuple
    const: float = 0.0

    def __str__(self):
        text = ""
        for atom, coef in self.terms:
            body = f"({atom})" if isinstance(atom, Opaque) else str(atom)
            magnitude = abs(coef)
            if magnitude != 1:
                body = f"{_format_number(magnitude)}*{body}"
            if not text:
                text = f"-{body}" if coef < 0 else body
            else:
                text += f" - {body}" if coef < 0 else f" + {body}"
        if self.const:
            sign = "-" if self.const < 0 else "+"
            text += f" {sign} {_format_number(abs(self.const))}"
        return text


@dataclasses.dataclass(frozen=True)
class Product:
    """coef * prod_k atom_k ** power_k, atoms being Var, Sum or Opaque."""

    factors: tuple
    coef: float = 1.0

    def __str__(self):
        def factor(atom, power):
            body = str(atom) if isinstance(atom, Var) else f"({atom})"
            return body if abs(power) == 1 else f"{body}**{abs(power)}"

        numerator = [factor(a, p) for a, p in self.factors if p > 0]
        denominator = [factor(a, p) for a, p in self.factors if p < 0]
        if self.coef != 1:
            numerator.insert(0, _format_number(self.coef))
        text = " * ".join(numerator) or "1"
        if len(denominator) == 1:
            text += f" / {denominator[0]}"
        elif denominator:
            text += f" / ({' * '.join(denominator)})"
        return text


def _as_coefficient(value):
    value = float(value)
    return int(value) if value.is_integer() else value


def linear(expressions, coefficients):
    """The expression sum_i coefficients[i] * expressions[i], simplified."""
    terms, const = {}, 0.0
    for expr, coef in zip(expressions, coefficients):
        coef = _as_coefficient(coef)
        if coef == 0:
            continue
        if isinstance(expr, Const):
            const += coef * expr.value
        elif isinstance(expr, Sum):
            for atom, inner in expr.terms:
                terms[atom] = terms.get(atom, 0) + coef * inner
            const += coef * expr.const
        elif isinstance(expr, Product) and expr.coef != 1:
            atom = Product(expr.factors)
            terms[atom] = terms.get(atom, 0) + coef * expr.coef
        else:
            terms[expr] = terms.get(expr, 0) + coef
    terms = {atom: coef for atom, coef in terms.items() if coef != 0}
    if not terms:
        return Const(const)
    if len(terms) == 1 and not const:
        ((atom, coef),) = terms.items()
        if coef == 1:
            return atom
    ordered = tuple(sorted(terms.items(), key=lambda item: _sort_key(item[0])))
    return Sum(ordered, const)


def _const_power(value, power):
    if value == 0:
        return 0.0 if power > 0 else float("inf")
    return float(value) ** power


def product(expressions, powers):
    """The expression prod_i expressions[i] ** powers[i], simplified."""
    factors, coef = {}, 1.0
    for expr, power in zip(expressions, powers):
        power = int(round(float(power)))
        if power == 0:
            continue
        if isinstance(expr, Const):
            coef *= _const_power(expr.value, power)
        elif isinstance(expr, Product):
            coef *= expr.coef**power
            for atom, inner in expr.factors:
                factors[atom] = factors.get(atom, 0) + power * inner
        else:
            factors[expr] = factors.get(expr, 0) + power
    factors = {atom: p for atom, p in factors.items() if p != 0}
    if coef == 0 or not factors:
        return Const(float(coef))
    if len(factors) == 1 and coef == 1:
        ((atom, power),) = factors.items()
        if power == 1:
            return atom
    ordered = tuple(sorted(factors.items(), key=lambda item: _sort_key(item[0])))
    return Product(ordered, float(coef))


def read(expressions, matrix, values, combine):
    """Rounds `matrix` to `values` and combines `expressions` per column."""
    return columns(expressions, round_to(matrix, values), combine)


def gated_columns(prefix, additions, multiplications, gate_line):
    """Outputs `g_k*(add_k) + (1 - g_k)*(mul_k)`, and the lines that define
    the gates used, `gate_line(name, k)`."""
    outputs, definitions = [], []
    for k, (add, mul) in enumerate(zip(additions, multiplications)):
        name = f"{prefix}.g{k}"
        outputs.append(gated(name, add, mul))
        if add != mul:
            definitions.append(gate_line(name, k))
    return outputs, definitions


def gated(gate_name, addition, multiplication):
    """g * (addition) + (1 - g) * (multiplication), unless both agree."""
    if addition == multiplication:
        return addition
    return Opaque(f"{gate_name}*({addition}) + (1 - {gate_name})*({multiplication})")


def round_to(values, allowed):
    """Rounds each entry of `values` to the nearest of the `allowed` values."""
    values = np.asarray(values, dtype=np.float64)
    allowed = np.asarray(allowed, dtype=np.float64)
    nearest = np.argmin(np.abs(values[..., None] - allowed), axis=-1)
    return allowed[nearest]


def columns(expressions, matrix, combine):
    """Applies `combine(expressions, matrix[:, j])` to each output column."""
    return [combine(expressions, matrix[:, j]) for j in range(matrix.shape[1])]


def gate_definition(name, expressions, gate_kernel, gate_bias, column):
    """A line `name = sigmoid(...)` with the gate's weights to 3 digits."""
    weights = np.round(gate_kernel[:, column], 3)
    text = str(linear(expressions, weights))
    if gate_bias is not None:
        bias = float(np.round(gate_bias[column], 3))
        if bias:
            text += f" {'-' if bias < 0 else '+'} {abs(bias):g}"
    return f"{name} = sigmoid({text})"
