"""Command lines for the runners' tests."""


def argv(**options):
    """`--name value` for each option (underscores become dashes; a list
    becomes an a,b list; None is left out)."""
    line = []
    for name, value in options.items():
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            value = ",".join(map(str, value))
        line += [f"--{name.replace('_', '-')}", str(value)]
    return line


def refusal(parse, line, capsys):
    """The one-line error with which `parse(line)` (a runner's `main` or
    `cli.parse_arguments`) refuses a command line, with exit status 2."""
    import pytest

    capsys.readouterr()
    with pytest.raises(SystemExit) as stop:
        parse(line)
    error = capsys.readouterr().err
    assert stop.value.code == 2, error
    assert error.count("\n") == 1 and error.endswith("(see --help)\n"), error
    return error
