"""The claims of Madsen & Johansen's arithmetic task (`benchmarks.claims`):

- `gates FILES`: figure 9 as a table, runs (solved) by where the second
  layer's gate ends;
- `varied FILES FIELD=VALUE ...`: figures 3, 7 and 8 as a table, the ×
  task's statistics by the one parameter a row varies, of the files'
  matching rows.
"""

from benchmarks.arithmetic.gates import gate_table
from benchmarks.arithmetic.varied_parameters import varied_table
from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import all_rows
from benchmarks.core.claim_rows import files_rows
from benchmarks.static_arithmetic import success


def _on_lines_of_its_own(table):
    """A table that may be empty, written on lines of its own."""
    return f"\n{table}\n" if table else ""


def varied(*arguments):
    table = varied_table(files_rows(arguments))
    return _on_lines_of_its_own(table)


def gates(*paths):
    return _on_lines_of_its_own(
        gate_table(all_rows(paths), success.unit_of, success.SYMBOLS)
    )


CLAIMS = {"gates": Claim(gates), "varied": Claim(varied)}


FIGURE3_RANGES_PAPER = "arithmetic/results/figure3_ranges_paper.jsonl"
FIGURE7_PAPER = "arithmetic/results/figure7_paper.jsonl"
FIGURE8_PAPER = "arithmetic/results/figure8_paper.jsonl"
FUNCTION_PAPER = "arithmetic/results/function/paper.jsonl"
FUNCTION_TORCH_ADAM = "arithmetic/results/fidelity/function_torch_adam.jsonl"
HIDDEN_SIZES_NMU_PAPER = "arithmetic/results/hidden_sizes_nmu_paper.jsonl"
HIDDEN_SIZE_10_PAPER = "arithmetic/results/hidden_size_10_paper.jsonl"
MADSEN2020_COMPUTE = "arithmetic/published/madsen2020_compute.csv"
MADSEN2020_TABLE1 = "arithmetic/published/madsen2020_table1.csv"
MADSEN2020_TABLE2 = "arithmetic/published/madsen2020_table2.csv"
MADSEN2020_TABLE5 = "arithmetic/published/madsen2020_table5.csv"
MADSEN2020_TABLE6 = "arithmetic/published/madsen2020_table6.csv"
PAPER = "arithmetic/results/trask_static/paper.jsonl"
TABLE2_500K_STEPS = "arithmetic/results/table2_500k_steps.jsonl"
TABLE2_NAC_SUB_PAPER = "arithmetic/results/fidelity/table2_nac_sub_paper.jsonl"
TABLE2_NMU_PAPER = "arithmetic/results/table2_nmu_paper.jsonl"
TABLE2_PAPER = "arithmetic/results/table2_paper.jsonl"
TABLE2_SUB_500K_TORCH_ADAM = (
    "arithmetic/results/fidelity/table2_sub_500k_torch_adam.jsonl"
)
TABLE5_PAPER = "arithmetic/results/table5_paper.jsonl"
TABLE6_GATED_SUBTRACTED_GATE = (
    "arithmetic/results/fidelity/table6_gated_subtracted_gate.jsonl"
)
TABLE6_NAC_MUL_NMU_AFTER_NAU = (
    "arithmetic/results/fidelity/table6_nac_mul_nmu_after_nau.jsonl"
)
TABLE6_PAPER = "arithmetic/results/table6_paper.jsonl"
TRASK2018_TABLE12 = "arithmetic/published/trask2018_table12.csv"
TRASK2018_TABLE7 = "arithmetic/published/trask2018_table7.csv"

#: The named claims of the pages over the rows of the arithmetic tasks (a page's
#: `<!--=ar.NAME-->` stands for the expression; `benchmarks.claims`).
NAMED = {
    "ar.500k.nac.sub.1": f"solved {TABLE2_500K_STEPS} model=nac operation=sub",
    "ar.500k.nac.sub.2": f"success {TABLE2_500K_STEPS} model=nac operation=sub",
    "ar.500k.nalu": f"solved {TABLE2_500K_STEPS} model=nalu",
    "ar.500k.nau.add": (
        f"mean {TABLE2_500K_STEPS} sparsity_error model=nau operation=add"
    ),
    "ar.500k.nau.add.5.1": (
        f"range {TABLE2_500K_STEPS} best_step model=nau operation=add seed=5"
    ),
    "ar.500k.nau.add.5.2": (
        f"range {TABLE2_500K_STEPS} solved_at model=nau operation=add seed=5"
    ),
    "ar.500k.nau.add.5.3": (
        f"value {TABLE2_500K_STEPS} sparsity_error .3f model=nau operation=add seed=5"
    ),
    "ar.500k.nau.sub": (
        f"mean {TABLE2_500K_STEPS} sparsity_error model=nau operation=sub"
    ),
    "ar.500k.nmu.mul": (
        f"range {TABLE2_500K_STEPS} interpolation_mse model=nmu operation=mul"
    ),
    "ar.add+sub.1": (
        f"raw_mse {PAPER} extrapolation operation=add|sub model=nalu_complex"
    ),
    "ar.add+sub.2": (
        f"raw_mse {PAPER} interpolation operation=add|sub model=nalu_complex"
    ),
    "ar.add+sub.3": (
        f"score {PAPER} extrapolation operation=add|sub model=nalu_complex"
    ),
    "ar.add+sub.nalu": (f"score {PAPER} extrapolation operation=add|sub model=nalu"),
    "ar.add.mlp_relu6+3": (
        f"score {PAPER} extrapolation operation=add "
        "model=mlp_relu6|mlp_softsign|mlp_tanh|mlp_sigmoid"
    ),
    "ar.add.mlp_relu+5": (
        f"score {PAPER} extrapolation operation=add "
        "model=mlp_relu|mlp_elu|mlp_selu|mlp_crelu|mlp_none|nac"
    ),
    "ar.add.nac_nalu+nac": (
        f"below {TABLE5_PAPER} gate 0.25 operation=add model=nac_nalu|nac_nalu_separate"
    ),
    "ar.add.nau_gated_na.1": (
        f"fisher {TABLE5_PAPER} operation=add model=nau_gated_nau_nmu"
    ),
    "ar.add.nau_gated_na.2": (
        f"mean {TABLE5_PAPER} solved_at operation=add model=nau_gated_nau_nmu "
        "solved=True"
    ),
    "ar.add.nau_gated_na.3": (
        f"solved {TABLE5_PAPER} operation=add model=nau_gated_nau_nmu"
    ),
    "ar.after_nau.at.mul": (
        f"mean {TABLE6_NAC_MUL_NMU_AFTER_NAU} solved_at operation=mul"
    ),
    "ar.after_nau.mul": f"solved {TABLE6_NAC_MUL_NMU_AFTER_NAU} operation=mul",
    "ar.at.linear.add": (f"mean {TABLE2_PAPER} solved_at model=linear operation=add"),
    "ar.at.linear.sub.7": (
        f"mean {TABLE2_PAPER} solved_at model=linear operation=sub seed=7"
    ),
    "ar.at.nac_mul.mul": (
        f"mean {TABLE2_PAPER} solved_at model=nac_mul operation=mul solved=True"
    ),
    "ar.at.nalu.solved": f"range {TABLE2_PAPER} solved_at model=nalu solved=True",
    "ar.at.nmu.mul": (
        f"mean {TABLE2_PAPER} solved_at model=nmu operation=mul solved=True"
    ),
    "ar.best.nau.sub": f"range {TABLE2_PAPER} best_step model=nau operation=sub",
    "ar.div.mlp_relu+9": (
        f"score {PAPER} extrapolation operation=div "
        "model=mlp_relu|mlp_elu|mlp_selu|mlp_crelu|mlp_none|mlp_relu6|mlp_softsign|mlp_tanh|mlp_sigmoid|nalu"
    ),
    "ar.f3.0,1": f"solved {FIGURE3_RANGES_PAPER} interpolation_range=0,1",
    "ar.f3.0.1,0.2.1": f"solved {FIGURE3_RANGES_PAPER} interpolation_range=0.1,0.2",
    "ar.f3.0.1,0.2.2": (
        f"value {FIGURE3_RANGES_PAPER} sparsity_error .2g interpolation_range=0.1,0.2"
    ),
    "ar.f3.1.1,1.2.1": f"solved {FIGURE3_RANGES_PAPER} interpolation_range=1.1,1.2",
    "ar.f3.1.1,1.2.2": (
        f"value {FIGURE3_RANGES_PAPER} sparsity_error .2g interpolation_range=1.1,1.2"
    ),
    "ar.f3.10,20.1": f"solved {FIGURE3_RANGES_PAPER} interpolation_range=10,20",
    "ar.f3.10,20.2": (
        f"value {FIGURE3_RANGES_PAPER} sparsity_error .2g interpolation_range=10,20"
    ),
    "ar.f3.-2,2": f"solved {FIGURE3_RANGES_PAPER} interpolation_range=-2,2",
    "ar.f3.-2,-1.1": f"solved {FIGURE3_RANGES_PAPER} interpolation_range=-2,-1",
    "ar.f3.-2,-1.2": (
        f"value {FIGURE3_RANGES_PAPER} sparsity_error .2g interpolation_range=-2,-1"
    ),
    "ar.f3.at.0,1": (
        f"value {FIGURE3_RANGES_PAPER} solved_at , interpolation_range=0,1"
    ),
    "ar.f3.at.0.1,0.2": (
        f"value {FIGURE3_RANGES_PAPER} solved_at , interpolation_range=0.1,0.2"
    ),
    "ar.f3.at.10,20": (
        f"value {FIGURE3_RANGES_PAPER} solved_at , interpolation_range=10,20"
    ),
    "ar.f3.at.-2,-1": (
        f"value {FIGURE3_RANGES_PAPER} solved_at , interpolation_range=-2,-1"
    ),
    "ar.f3.sparsity.0,1": (
        f"value {FIGURE3_RANGES_PAPER} sparsity_error .2g interpolation_range=0,1"
    ),
    "ar.f3.sparsity.-2,2": (
        f"value {FIGURE3_RANGES_PAPER} sparsity_error .2g interpolation_range=-2,2"
    ),
    "ar.f7.nmu.None.1": (
        f"range {FIGURE7_PAPER} sparsity_error model=nmu hidden_size=None"
    ),
    "ar.f7.nmu.None.2": f"solved {FIGURE7_PAPER} model=nmu hidden_size=None",
    "ar.f8.0.25.0.0": (
        f"value {FIGURE8_PAPER} threshold .2g subset_ratio=0.25 overlap_ratio=0.0"
    ),
    "ar.f8.0.25.0.5": (f"solved {FIGURE8_PAPER} subset_ratio=0.25 overlap_ratio=0.5"),
    "ar.f8.100.0.5": f"solved {FIGURE8_PAPER} input_size=100 overlap_ratio=0.5",
    "ar.f8.100.0.25": f"solved {FIGURE8_PAPER} input_size=100 subset_ratio=0.25",
    "ar.f8.at.0.25.0.5": (
        f"range {FIGURE8_PAPER} solved_at subset_ratio=0.25 overlap_ratio=0.5 "
        "solved=True"
    ),
    "ar.f8.at.100.0.25": (
        f"range {FIGURE8_PAPER} solved_at input_size=100 subset_ratio=0.25 solved=True"
    ),
    "ar.f8.sparsity.0.5": (
        f"value {FIGURE8_PAPER} sparsity_error .2f subset_ratio=0.5"
    ),
    "ar.f8.sparsity.175": (f"value {FIGURE8_PAPER} sparsity_error .2g input_size=175"),
    "ar.f8.threshold.0.5": f"value {FIGURE8_PAPER} threshold .2g subset_ratio=0.5",
    "ar.f8.xmse.0.5": (f"value {FIGURE8_PAPER} extrapolation_mse .2g subset_ratio=0.5"),
    "ar.fn.nac_mul.1": (
        f"mean {FUNCTION_PAPER} sparsity_error model=nac_mul solved=True"
    ),
    "ar.fn.nac_mul.2": f"solved {FUNCTION_PAPER} model=nac_mul",
    "ar.fn.nalu": f"solved {FUNCTION_PAPER} model=nalu",
    "ar.fn_torch.at.nalu": (
        f"mean {FUNCTION_TORCH_ADAM} solved_at model=nalu solved=True"
    ),
    "ar.fn_torch.nac_mul.1": (
        f"mean {FUNCTION_TORCH_ADAM} sparsity_error model=nac_mul solved=True"
    ),
    "ar.fn_torch.nac_mul.2": f"success {FUNCTION_TORCH_ADAM} model=nac_mul",
    "ar.gate_sub.at.0": f"value {TABLE6_GATED_SUBTRACTED_GATE} solved_at , seed=0",
    "ar.gated_nau_nm": (
        f"solved {TABLE6_PAPER} model=gated_nau_nmu operation=sub|mul|div|squared|root"
    ),
    "ar.gated_nau_nm.add.1": (
        f"fisher {TABLE6_PAPER} model=gated_nau_nmu operation=add"
    ),
    "ar.gated_nau_nm.add.2": (
        f"range {TABLE6_PAPER} interpolation_mse model=gated_nau_nmu operation=add "
        "seed=1|2|3|4|5|6|7|8|9"
    ),
    "ar.gated_nau_nm.add.3": (
        f"solved {TABLE6_GATED_SUBTRACTED_GATE} model=gated_nau_nmu_subtracted_gate "
        "operation=add"
    ),
    "ar.gated_nau_nm.add.4": (
        f"solved {TABLE6_PAPER} model=gated_nau_nmu operation=add"
    ),
    "ar.gated_nau_nm.add.5": (
        f"value {TABLE6_PAPER} solved_at , model=gated_nau_nmu operation=add seed=0"
    ),
    "ar.gates.t5": f"gates {TABLE5_PAPER}",
    "ar.h10.imse.nmu": (
        f"range {HIDDEN_SIZE_10_PAPER} interpolation_mse model=nmu solved=False"
    ),
    "ar.h10.nac_mul+3": (
        f"solved {HIDDEN_SIZE_10_PAPER} "
        "model=nac_mul|nac_mul_sigmoid|nau_nac_mul_nmu|nalu"
    ),
    "ar.h10.nac_mul+nac_.1": (
        f"range {HIDDEN_SIZE_10_PAPER} extrapolation_mse model=nac_mul|nac_mul_sigmoid"
    ),
    "ar.h10.nac_mul+nac_.2": (
        f"range {HIDDEN_SIZE_10_PAPER} interpolation_mse model=nac_mul|nac_mul_sigmoid"
    ),
    "ar.h10.nmu": f"solved {HIDDEN_SIZE_10_PAPER} model=nmu",
    "ar.h10.nmu_no_clamp": f"solved {HIDDEN_SIZE_10_PAPER} model=nmu_no_clamp",
    "ar.h10.nmu_no_spars": f"solved {HIDDEN_SIZE_10_PAPER} model=nmu_no_sparse",
    "ar.h10.sparsity.nmu": (
        f"range {HIDDEN_SIZE_10_PAPER} sparsity_error model=nmu solved=False"
    ),
    "ar.h10.xmse.nmu": (
        f"range {HIDDEN_SIZE_10_PAPER} extrapolation_mse model=nmu solved=False"
    ),
    "ar.h.nacsub": f"hours {TABLE2_NAC_SUB_PAPER}",
    "ar.hs": f"solved {HIDDEN_SIZES_NMU_PAPER}",
    "ar.hs.sparsity.4": (
        f"range {HIDDEN_SIZES_NMU_PAPER} sparsity_error hidden_size=4"
    ),
    "ar.imse.nau.sub": (
        f"range {TABLE2_PAPER} interpolation_mse model=nau operation=sub"
    ),
    "ar.linear.add.1": (
        f"range {TABLE2_PAPER} sparsity_error model=linear operation=add"
    ),
    "ar.linear.add.2": f"solved {TABLE2_PAPER} model=linear operation=add",
    "ar.linear.sub.1": (f"mean {TABLE2_PAPER} threshold model=linear operation=sub"),
    "ar.linear.sub.2": (
        f"range {TABLE2_PAPER} sparsity_error model=linear operation=sub"
    ),
    "ar.linear.sub.3": f"solved {TABLE2_PAPER} model=linear operation=sub",
    "ar.linear_no_bi": (f"solved {TABLE2_SUB_500K_TORCH_ADAM} model=linear_no_bias"),
    "ar.linear_no_bi.sub": (
        f"success {TABLE2_500K_STEPS} model=linear_no_bias operation=sub"
    ),
    "ar.mean.at.nac.add": f"mean {TABLE2_PAPER} solved_at model=nac operation=add",
    "ar.min": f"minutes {TABLE2_PAPER}",
    "ar.min.t5": f"minutes {TABLE5_PAPER}",
    "ar.mlp_none": f"solved {TABLE2_SUB_500K_TORCH_ADAM} model=mlp_none",
    "ar.mul+squared.1": (
        f"raw_mse {PAPER} extrapolation operation=mul|squared model=nalu_complex"
    ),
    "ar.mul+squared.2": (
        f"score {PAPER} extrapolation operation=mul|squared "
        "model=mlp_relu|mlp_elu|mlp_selu|mlp_crelu|mlp_none"
    ),
    "ar.mul+squared.3": (
        f"score {PAPER} interpolation operation=mul|squared "
        "model=mlp_relu6|mlp_softsign|mlp_tanh|mlp_sigmoid"
    ),
    "ar.mul+squared.4": (
        f"score {PAPER} interpolation operation=mul|squared "
        "model=mlp_relu|mlp_elu|mlp_selu|mlp_crelu|mlp_none"
    ),
    "ar.mul+squared.nalu.1": (
        f"raw_mse {PAPER} extrapolation operation=mul|squared model=nalu"
    ),
    "ar.mul+squared.nalu.2": (
        f"score {PAPER} extrapolation operation=mul|squared model=nalu"
    ),
    "ar.mul.mlp_relu": (f"raw_mse {PAPER} interpolation operation=mul model=mlp_relu"),
    "ar.mul.nac_nalu+nac": (
        f"below {TABLE5_PAPER} gate 0.25 operation=mul model=nac_nalu|nac_nalu_separate"
    ),
    "ar.mul.nau_gated_na.1": (
        f"fisher {TABLE5_PAPER} operation=mul model=nau_gated_nau_nmu"
    ),
    "ar.mul.nau_gated_na.2": (
        f"mean {TABLE5_PAPER} solved_at operation=mul model=nau_gated_nau_nmu "
        "solved=True"
    ),
    "ar.mul.nau_gated_na.3": (
        f"solved {TABLE5_PAPER} operation=mul model=nau_gated_nau_nmu"
    ),
    "ar.nac.add": f"solved {TABLE2_PAPER} model=nac operation=add",
    "ar.nac_mul.mul.1": (
        f"range {TABLE2_PAPER} sparsity_error model=nac_mul operation=mul solved=False"
    ),
    "ar.nac_mul.mul.2": f"solved {TABLE2_PAPER} model=nac_mul operation=mul",
    "ar.nac_mul_nmu.1": (
        f"range {TABLE6_PAPER} sparsity_error model=nac_mul_nmu operation=mul|squared "
        "seed=1|2|3|4"
    ),
    "ar.nac_mul_nmu.2": (
        f"solved {TABLE6_PAPER} model=nac_mul_nmu operation=mul|squared"
    ),
    "ar.nacsub": f"solved {TABLE2_NAC_SUB_PAPER}",
    "ar.nacsub.at.4+3": f"range {TABLE2_NAC_SUB_PAPER} solved_at seed=4|6|8|9",
    "ar.nacsub.at.10001": f"below {TABLE2_NAC_SUB_PAPER} solved_at 10001",
    "ar.nacsub.at.solved": f"mean {TABLE2_NAC_SUB_PAPER} solved_at solved=True",
    "ar.nalu.add": f"solved {TABLE2_PAPER} model=nalu operation=add",
    "ar.nalu.mul": f"solved {TABLE2_PAPER} model=nalu operation=mul",
    "ar.nalu.sub": f"solved {TABLE2_PAPER} model=nalu operation=sub",
    "ar.nau.add": f"solved {TABLE2_PAPER} model=nau operation=add",
    "ar.nau.add.not_5": (
        f"maximum {TABLE2_500K_STEPS} sparsity_error model=nau operation=add seed!=5"
    ),
    "ar.nau.sub": f"solved {TABLE2_PAPER} model=nau operation=sub",
    "ar.nau.sub.1e-5.1": (
        f"range {TABLE2_PAPER} best_step model=nau operation=sub sparsity_error>=1e-5"
    ),
    "ar.nau.sub.1e-5.2": (
        f"range {TABLE2_PAPER} sparsity_error model=nau operation=sub "
        "sparsity_error>=1e-5"
    ),
    "ar.nmu5M.at.nmu": (f"mean {TABLE2_NMU_PAPER} solved_at model=nmu solved=True"),
    "ar.nmu5M.at.nmu.mul": (
        f"mean {TABLE2_NMU_PAPER} solved_at model=nmu operation=mul solved=True"
    ),
    "ar.nmu.mul": f"solved {TABLE2_PAPER} model=nmu operation=mul",
    "ar.nmu_no_clamp.4.1": (
        f"range {FIGURE7_PAPER} solved_at model=nmu_no_clamp hidden_size=4"
    ),
    "ar.nmu_no_clamp.4.2": (f"solved {FIGURE7_PAPER} model=nmu_no_clamp hidden_size=4"),
    "ar.nmu_no_spars.1": (
        f"range {FIGURE7_PAPER} sparsity_error model=nmu_no_sparse hidden_size=None"
    ),
    "ar.nmu_no_spars.2": (
        f"solved {FIGURE7_PAPER} "
        "model=nmu_no_sparse|nmu_no_clamp|nmu_no_sparse_no_clamp hidden_size=None"
    ),
    "ar.nmu_no_spars.4.1": (
        f"range {FIGURE7_PAPER} solved_at model=nmu_no_sparse_no_clamp hidden_size=4"
    ),
    "ar.nmu_no_spars.4.2": (
        f"range {FIGURE7_PAPER} sparsity_error model=nmu_no_sparse_no_clamp "
        "hidden_size=4"
    ),
    "ar.nmu_no_spars.4.3": (
        f"solved {FIGURE7_PAPER} model=nmu_no_sparse hidden_size=4"
    ),
    "ar.nmu_no_spars.4.4": (
        f"solved {FIGURE7_PAPER} model=nmu_no_sparse_no_clamp hidden_size=4"
    ),
    "ar.osaj.fn": f"outside_solved_at_joint {FUNCTION_PAPER} {FUNCTION_TORCH_ADAM}",
    "ar.p.fn.nac_mul": f"fisher {FUNCTION_PAPER} model=nac_mul",
    "ar.p.linear.sub": f"fisher {TABLE2_PAPER} model=linear operation=sub",
    "ar.p.nac_mul.mul": f"fisher {TABLE2_PAPER} model=nac_mul operation=mul",
    "ar.p.nalu.add": f"fisher {TABLE2_PAPER} model=nalu operation=add",
    "ar.p.nalu.sub": f"fisher {TABLE2_PAPER} model=nalu operation=sub",
    "ar.pub1.at.nac_mul": (f"paper {MADSEN2020_TABLE1} solved_at_mean - model=nac_mul"),
    "ar.pub1.at.nalu": f"paper {MADSEN2020_TABLE1} solved_at_mean - model=nalu",
    "ar.pub1.nac_mul.1": (f"paper {MADSEN2020_TABLE1} solved_at_lower - model=nac_mul"),
    "ar.pub1.nac_mul.2": (f"paper {MADSEN2020_TABLE1} solved_at_upper - model=nac_mul"),
    "ar.pub1.nac_mul.mul": (
        f"paper {MADSEN2020_TABLE1} success_rate .0% model=nac_mul operation=mul"
    ),
    "ar.pub1.nalu.1": f"paper {MADSEN2020_TABLE1} solved_at_lower - model=nalu",
    "ar.pub1.nalu.2": f"paper {MADSEN2020_TABLE1} solved_at_upper - model=nalu",
    "ar.pub2": (f"paper {MADSEN2020_TABLE2} solved_at_mean - model=nac_mul|nalu"),
    "ar.pub2.at.nac.add": (
        f"paper {MADSEN2020_TABLE2} solved_at_mean - model=nac operation=add"
    ),
    "ar.pub2.at.nac.sub": (
        f"paper {MADSEN2020_TABLE2} solved_at_mean - model=nac operation=sub"
    ),
    "ar.pub2.at.nalu.add": (
        f"paper {MADSEN2020_TABLE2} solved_at_mean - model=nalu operation=add"
    ),
    "ar.pub2.at.nalu.sub": (
        f"paper {MADSEN2020_TABLE2} solved_at_mean - model=nalu operation=sub"
    ),
    "ar.pub2.at.nmu.mul": (
        f"paper {MADSEN2020_TABLE2} solved_at_mean - model=nmu operation=mul"
    ),
    "ar.pub2.linear.add.1": (
        f"paper {MADSEN2020_TABLE2} solved_at_mean - model=linear operation=add"
    ),
    "ar.pub2.linear.add.2": (
        f"paper {MADSEN2020_TABLE2} success_rate .0% model=linear operation=add"
    ),
    "ar.pub2.linear.sub": (
        f"paper {MADSEN2020_TABLE2} success_rate .0% model=linear operation=sub"
    ),
    "ar.pub2.nac.add.1": (
        f"paper {MADSEN2020_TABLE2} solved_at_median - model=nac operation=add"
    ),
    "ar.pub2.nac.add.2": (
        f"paper {MADSEN2020_TABLE2} success_rate .0% model=nac operation=add"
    ),
    "ar.pub2.nac.sub": (
        f"paper {MADSEN2020_TABLE2} success_rate .0% model=nac operation=sub"
    ),
    "ar.pub2.nac_mul.mul.1": (
        f"paper {MADSEN2020_TABLE2} solved_at_mean - model=nac_mul operation=mul"
    ),
    "ar.pub2.nac_mul.mul.2": (
        f"paper {MADSEN2020_TABLE2} success_rate .0% model=nac_mul operation=mul"
    ),
    "ar.pub2.nalu.add.1": (
        f"paper {MADSEN2020_TABLE2} sparsity_error_mean - model=nalu operation=add"
    ),
    "ar.pub2.nalu.add.2": (
        f"paper {MADSEN2020_TABLE2} success_rate .0% model=nalu operation=add"
    ),
    "ar.pub2.nalu.mul": (
        f"paper {MADSEN2020_TABLE2} success_rate .0% model=nalu operation=mul"
    ),
    "ar.pub2.nalu.sub.1": (
        f"paper {MADSEN2020_TABLE2} sparsity_error_mean - model=nalu operation=sub"
    ),
    "ar.pub2.nalu.sub.2": (
        f"paper {MADSEN2020_TABLE2} success_rate .0% model=nalu operation=sub"
    ),
    "ar.pub2.nau.add.1": (
        f"paper {MADSEN2020_TABLE2} solved_at_median - model=nau operation=add"
    ),
    "ar.pub2.nau.add.2": (
        f"paper {MADSEN2020_TABLE2} sparsity_error_mean - model=nau operation=add"
    ),
    "ar.pub2.nau.add.3": (
        f"paper {MADSEN2020_TABLE2} success_rate .0% model=nau operation=add"
    ),
    "ar.pub2.nau.sub.1": (
        f"paper {MADSEN2020_TABLE2} solved_at_median - model=nau operation=sub"
    ),
    "ar.pub2.nau.sub.2": (
        f"paper {MADSEN2020_TABLE2} sparsity_error_mean - model=nau operation=sub"
    ),
    "ar.pub2.nau.sub.3": (
        f"paper {MADSEN2020_TABLE2} success_rate .0% model=nau operation=sub"
    ),
    "ar.pub2.nmu.mul": (
        f"paper {MADSEN2020_TABLE2} success_rate .0% model=nmu operation=mul"
    ),
    "ar.pub5.1": (
        f"paper {MADSEN2020_TABLE5} solved_at_mean - model=nau_gated_nau_nmu "
        "operation=add"
    ),
    "ar.pub5.2": (
        f"paper {MADSEN2020_TABLE5} solved_at_mean - model=nau_gated_nau_nmu "
        "operation=mul"
    ),
    "ar.pub5.3": (
        f"paper {MADSEN2020_TABLE5} solved_at_median - model=nau_gated_nau_nmu "
        "operation=add"
    ),
    "ar.pub5.4": (
        f"paper {MADSEN2020_TABLE5} success_rate .0% model=nau_gated_nau_nmu "
        "operation=add"
    ),
    "ar.pub5.5": (
        f"paper {MADSEN2020_TABLE5} success_rate .0% model=nau_gated_nau_nmu "
        "operation=mul"
    ),
    "ar.pub6": (
        f"paper {MADSEN2020_TABLE6} success_rate .0% model=gated_nau_nmu operation=add"
    ),
    "ar.pub6.nac_mul_nmu.1": (
        f"paper {MADSEN2020_TABLE6} solved_at_mean - model=nac_mul_nmu operation=mul"
    ),
    "ar.pub6.nac_mul_nmu.2": (
        f"paper {MADSEN2020_TABLE6} solved_at_median - model=nac_mul_nmu operation=mul"
    ),
    "ar.pub6.nac_mul_nmu.3": (
        f"paper {MADSEN2020_TABLE6} solved_at_median - model=nac_mul_nmu "
        "operation=squared"
    ),
    "ar.pub6.nac_mul_nmu.4": (
        f"paper {MADSEN2020_TABLE6} success_rate .0% model=nac_mul_nmu operation=mul"
    ),
    "ar.pub6.nac_mul_nmu.5": (
        f"paper {MADSEN2020_TABLE6} success_rate .0% model=nac_mul_nmu "
        "operation=squared"
    ),
    "ar.pub6.nmu.squared": (
        f"paper {MADSEN2020_TABLE6} solved_at_mean - model=nmu operation=squared"
    ),
    "ar.pub7.add+3.nalu": (
        f"paper {TRASK2018_TABLE7} extrapolation - operation=add|sub|mul|squared "
        "model=nalu"
    ),
    "ar.pub7.add.1": (
        f"paper {TRASK2018_TABLE7} extrapolation - operation=add "
        "model=mlp_relu6|mlp_softsign|mlp_tanh|mlp_sigmoid"
    ),
    "ar.pub7.add.2": (
        f"paper {TRASK2018_TABLE7} extrapolation - operation=add "
        "model=mlp_relu|mlp_elu|mlp_selu|mlp_crelu|mlp_none|nac"
    ),
    "ar.pub7.div": (
        f"paper {TRASK2018_TABLE7} extrapolation - operation=div "
        "model=mlp_relu|mlp_elu|mlp_selu|mlp_crelu|mlp_none|mlp_relu6|mlp_softsign|mlp_tanh|mlp_sigmoid"
    ),
    "ar.pub7.ex.div.nalu": (
        f"paper {TRASK2018_TABLE7} extrapolation - operation=div model=nalu"
    ),
    "ar.pub7.in.div.nalu": (
        f"paper {TRASK2018_TABLE7} interpolation - operation=div model=nalu"
    ),
    "ar.pub7.mul+squared.1": (
        f"paper {TRASK2018_TABLE7} extrapolation - operation=mul|squared "
        "model=mlp_relu|mlp_elu|mlp_selu|mlp_crelu|mlp_none"
    ),
    "ar.pub7.mul+squared.2": (
        f"paper {TRASK2018_TABLE7} interpolation - operation=mul|squared "
        "model=mlp_relu|mlp_elu|mlp_selu|mlp_crelu|mlp_none"
    ),
    "ar.pub7.sub": (
        f"paper {TRASK2018_TABLE7} extrapolation - operation=sub "
        "model=mlp_relu|mlp_elu|mlp_selu"
    ),
    "ar.pub7.sub.nac+2": (
        f"paper {TRASK2018_TABLE7} extrapolation - operation=sub "
        "model=nac|mlp_none|mlp_crelu"
    ),
    "ar.pub12.1": (
        f"paper {TRASK2018_TABLE12} extrapolation - model=nalu_complex operation=add"
    ),
    "ar.pub12.2": (
        f"paper {TRASK2018_TABLE12} extrapolation - model=nalu_complex "
        "operation=mul|squared"
    ),
    "ar.pub12.3": (
        f"paper {TRASK2018_TABLE12} extrapolation - model=nalu_complex operation=sub"
    ),
    "ar.pub12.4": (
        f"paper {TRASK2018_TABLE12} interpolation - model=nalu_complex operation=add"
    ),
    "ar.pub12.5": (
        f"paper {TRASK2018_TABLE12} interpolation - model=nalu_complex operation=sub"
    ),
    "ar.pub12.mlp_relu": (
        f"paper {TRASK2018_TABLE12} interpolation .2f model=mlp_relu operation=mul"
    ),
    "ar.pub.arithmetic": (
        f"paper {MADSEN2020_COMPUTE} hours_per_run - task=arithmetic"
    ),
    "ar.range.at.nac.add": f"range {TABLE2_PAPER} solved_at model=nac operation=add",
    "ar.range.at.nau.add": f"range {TABLE2_PAPER} solved_at model=nau operation=add",
    "ar.range.at.nau.sub": f"range {TABLE2_PAPER} solved_at model=nau operation=sub",
    "ar.range.hs.at.4": f"range {HIDDEN_SIZES_NMU_PAPER} solved_at hidden_size=4",
    "ar.range.hs.at.6": f"range {HIDDEN_SIZES_NMU_PAPER} solved_at hidden_size=6",
    "ar.range.hs.at.8": f"range {HIDDEN_SIZES_NMU_PAPER} solved_at hidden_size=8",
    "ar.range.wall.nalu": f"range {TABLE2_PAPER} wall_seconds model=nalu",
    "ar.rate.fn.nac_mul": f"success {FUNCTION_PAPER} model=nac_mul",
    "ar.rates": f"rate_table {TABLE2_PAPER} {TABLE2_NAC_SUB_PAPER}",
    "ar.sparsity.nalu": (f"range {TABLE2_PAPER} sparsity_error model=nalu solved=True"),
    "ar.sparsity.nau.add": (
        f"range {TABLE2_PAPER} sparsity_error model=nau operation=add"
    ),
    "ar.sparsity.nau.sub.1": (
        f"below {TABLE2_PAPER} sparsity_error 1e-5 model=nau operation=sub"
    ),
    "ar.sparsity.nau.sub.2": (
        f"range {TABLE2_PAPER} sparsity_error model=nau operation=sub"
    ),
    "ar.squared.1": (
        f"mean {TABLE6_NAC_MUL_NMU_AFTER_NAU} solved_at operation=squared"
    ),
    "ar.squared.2": f"solved {TABLE6_NAC_MUL_NMU_AFTER_NAU} operation=squared",
    "ar.static.add.nalu": f"score {PAPER} extrapolation operation=add model=nalu",
    "ar.static.div.nac": f"score {PAPER} extrapolation operation=div model=nac",
    "ar.static.sub.nac+2": (
        f"score {PAPER} extrapolation operation=sub model=nac|mlp_none|mlp_crelu"
    ),
    "ar.static.sub.nalu": f"score {PAPER} extrapolation operation=sub model=nalu",
    "ar.sub.mlp_relu+2": (
        f"score {PAPER} extrapolation operation=sub model=mlp_relu|mlp_elu|mlp_selu"
    ),
    "ar.sub_torch.nac": f"solved {TABLE2_SUB_500K_TORCH_ADAM} model=nac",
    "ar.summary.f7": (
        f"summary {FIGURE7_PAPER} {HIDDEN_SIZES_NMU_PAPER} {HIDDEN_SIZE_10_PAPER}"
    ),
    "ar.summary.fn": f"summary {FUNCTION_PAPER} {FUNCTION_TORCH_ADAM}",
    "ar.summary.nmu5M": (
        f"summary {TABLE2_NMU_PAPER} {TABLE2_500K_STEPS} {TABLE2_PAPER}"
    ),
    "ar.summary.t5": f"summary {TABLE5_PAPER}",
    "ar.summary.t6": f"summary {TABLE6_PAPER}",
    "ar.t6.div": f"solved {TABLE6_PAPER} operation=div",
    "ar.t6.gated_nau_nm": f"range {TABLE6_PAPER} wall_seconds model=gated_nau_nmu",
    "ar.t6.nmu.squared.1": f"solved {TABLE6_PAPER} model=nmu operation=squared",
    "ar.t6.nmu.squared.2": (
        f"value {TABLE6_PAPER} solved_at , model=nmu operation=squared"
    ),
    "ar.t6.root": f"solved {TABLE6_PAPER} operation=root",
    "ar.t6.wall.nmu": f"range {TABLE6_PAPER} wall_seconds model=nmu",
    "ar.threshold.mul": f"range {TABLE2_PAPER} threshold operation=mul",
    "ar.varied.f8.nmu": (
        f"varied {FIGURE8_PAPER} {FIGURE7_PAPER} {HIDDEN_SIZES_NMU_PAPER} "
        f"{HIDDEN_SIZE_10_PAPER} model=nmu"
    ),
    "ar.xmse.linear.sub.1": (
        f"field_ratio {TABLE2_PAPER} extrapolation_mse threshold model=linear "
        "operation=sub"
    ),
    "ar.xmse.linear.sub.2": (
        f"range {TABLE2_PAPER} extrapolation_mse model=linear operation=sub"
    ),
    "ar.xmse.nac_mul.mul": (
        f"range {TABLE2_PAPER} extrapolation_mse model=nac_mul operation=mul "
        "solved=False"
    ),
    "ar.xmse.nau.sub": (
        f"range {TABLE2_PAPER} extrapolation_mse model=nau operation=sub"
    ),
}
