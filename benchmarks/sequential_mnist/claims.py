"""The claims of the sequential MNIST tasks (`benchmarks.claims`):
`ratio_to_solved FILE LENGTHS FIELD=VALUE ...`, a matched model's median
test MSE over the solved accumulator's, its range over the sequence
lengths ("8,10-14") and the models; `solved_threshold FILE LENGTHS`, the
success thresholds the report draws from the file's solved-accumulator
runs at those lengths ("0.51, 28.7")."""

import collections
import statistics

from benchmarks.core.claim_rows import Claim
from benchmarks.core.claim_rows import matching
from benchmarks.core.claim_rows import pretty
from benchmarks.core.claim_rows import span


def _lengths(spec):
    """ "1-7,9,15-20" -> [1, ..., 7, 9, 15, ..., 20]."""
    lengths = []
    for part in spec.split(","):
        low, _, high = part.partition("-")
        lengths += range(int(low), int(high or low) + 1)
    return lengths


def ratio_to_solved(path, lengths, *filters):
    """The range, over the sequence `lengths` ("8,10-14") and the models
    matched, of a model's median test MSE over its matching runs divided by
    the solved accumulator's (`model=solved`) of the same file
    ("1.6-2.4")."""

    def medians(runs):
        return {
            length: statistics.median(row["test_mse"][str(length)] for row in runs)
            for length in _lengths(lengths)
        }

    models = collections.defaultdict(list)
    for row in matching(path, filters):
        models[row["model"]].append(row)
    solved = medians(matching(path, ["model=solved"]))
    return span(
        [
            ours[length] / solved[length]
            for ours in map(medians, models.values())
            for length in ours
        ]
    )


def solved_threshold(path, lengths):
    """The report's success threshold at each of the sequence `lengths`
    ("1,10"), from the file's solved-accumulator runs: "0.51, 28.7"."""
    from benchmarks.sequential_mnist.report import thresholds

    found = thresholds(matching(path, ["model=solved"]))
    missing = [n for n in _lengths(lengths) if str(n) not in found]
    if missing:
        raise ValueError(f"{path} gives no threshold at length {missing[0]}.")
    return ", ".join(pretty(found[str(n)]) for n in _lengths(lengths))


CLAIMS = {
    "ratio_to_solved": Claim(ratio_to_solved),
    "solved_threshold": Claim(solved_threshold),
}


MNIST_ADD_QUICK = "sequential_mnist/results/mnist_add_quick.jsonl"
MNIST_COUNT_QUICK = "sequential_mnist/results/mnist_count_quick.jsonl"
MNIST_COUNT_HUB = "sequential_mnist/results/mnist_count_hub_12000steps.jsonl"
MNIST_ADD_HUB = "sequential_mnist/results/mnist_add_hub_12000steps.jsonl"
#: Trask's addition trained on the running sum at every step.
MNIST_ADD_EVERY_STEP_HUB = "sequential_mnist/results/mnist_add_every_step_hub.jsonl"
MNIST_COUNT_LINEAR_HUB = (
    "sequential_mnist/results/mnist_count_linear_head_hub_12000steps.jsonl"
)
#: The LSTM's and GRU's rows of that file as first made, before rows
#: recorded the classification share.
MNIST_COUNT_LINEAR_HUB_67342F6 = (
    "sequential_mnist/results/mnist_count_linear_head_hub_12000steps_67342f6.jsonl"
)
MNIST_PRODUCT_QUICK = "sequential_mnist/results/mnist_product_quick.jsonl"
MNIST_SUM_QUICK = "sequential_mnist/results/mnist_sum_quick.jsonl"
MNIST_PRODUCT_HUB = "sequential_mnist/results/mnist_product_hub_12000steps.jsonl"
MNIST_SUM_HUB = "sequential_mnist/results/mnist_sum_hub_12000steps.jsonl"
TRASK2018_TABLE10 = "sequential_mnist/published/trask2018_table10.csv"

#: The named claims of the pages over the rows of the MNIST tasks (a page's
#: `<!--=mn.NAME-->` stands for the expression; `benchmarks.claims`).
NAMED = {
    "mn.hub.count.lstm.1": (f"value {MNIST_COUNT_HUB} test_accuracy.1 .1% model=lstm"),
    "mn.hub.count.lstm.mse.1": (f"value {MNIST_COUNT_HUB} test_mse.1 .3g model=lstm"),
    "mn.hub.count.lstm.mse.10": (f"value {MNIST_COUNT_HUB} test_mse.10 .3g model=lstm"),
    "mn.hub.count.lstm.mse.100": (f"range {MNIST_COUNT_HUB} test_mse.100 model=lstm"),
    "mn.hub.count.lstm.mse.1000": (f"range {MNIST_COUNT_HUB} test_mse.1000 model=lstm"),
    "mn.hub.add": f"report_table {MNIST_ADD_HUB}",
    "mn.hub.add.runs": f"runs {MNIST_ADD_HUB}",
    "mn.hub.add.nac+nalu.1": f"range {MNIST_ADD_HUB} test_accuracy.1 model=nac|nalu",
    "mn.hub.add.nac+nalu.mse.10": f"range {MNIST_ADD_HUB} test_mse.10 model=nac|nalu",
    "mn.hub.add.rnn_relu.1": (
        f"value {MNIST_ADD_HUB} test_accuracy.1 .1% model=rnn_relu"
    ),
    "mn.hub.add.rnn_relu.mse.10": (
        f"value {MNIST_ADD_HUB} test_mse.10 .3g model=rnn_relu"
    ),
    "mn.hub.add.minutes": f"minutes {MNIST_ADD_HUB}",
    "mn.hub.add.every": f"report_table {MNIST_ADD_EVERY_STEP_HUB}",
    "mn.hub.add.every.runs": f"runs {MNIST_ADD_EVERY_STEP_HUB}",
    "mn.hub.add.every.nac.1": (
        f"value {MNIST_ADD_EVERY_STEP_HUB} test_accuracy.1 .1% "
        "max_steps=12000 model=nac"
    ),
    "mn.hub.add.every.rnn_relu.1": (
        f"value {MNIST_ADD_EVERY_STEP_HUB} test_accuracy.1 .1% "
        "max_steps=12000 model=rnn_relu"
    ),
    "mn.hub.add.every.lstm.1": (
        f"value {MNIST_ADD_EVERY_STEP_HUB} test_accuracy.1 .1% model=lstm"
    ),
    "mn.hub.add.every.gru.1": (
        f"value {MNIST_ADD_EVERY_STEP_HUB} test_accuracy.1 .1% model=gru"
    ),
    "mn.hub.add.every.lstm+gru.mse.10": (
        f"range {MNIST_ADD_EVERY_STEP_HUB} test_mse.10 model=lstm|gru"
    ),
    "mn.hub.add.every.mse.10": (
        f"range {MNIST_ADD_EVERY_STEP_HUB} test_mse.10 "
        "max_steps=12000 model=nac|rnn_relu"
    ),
    "mn.hub.add.every.mse.100": (
        f"range {MNIST_ADD_EVERY_STEP_HUB} test_mse.100 "
        "max_steps=12000 model=nac|rnn_relu"
    ),
    "mn.hub.add.every.minutes": f"minutes {MNIST_ADD_EVERY_STEP_HUB} max_steps=12000",
    "mn.hub.add.every.18000": f"report_table {MNIST_ADD_EVERY_STEP_HUB} table=2",
    "mn.hub.add.every.18000.nac.1": (
        f"value {MNIST_ADD_EVERY_STEP_HUB} test_accuracy.1 .1% "
        "max_steps=18000 model=nac"
    ),
    "mn.hub.add.every.18000.rnn_relu.1": (
        f"value {MNIST_ADD_EVERY_STEP_HUB} test_accuracy.1 .1% "
        "max_steps=18000 model=rnn_relu"
    ),
    "mn.hub.add.every.18000.best_step": (
        f"range {MNIST_ADD_EVERY_STEP_HUB} best_step max_steps=18000"
    ),
    "mn.hub.add.every.18000.mse.10": (
        f"range {MNIST_ADD_EVERY_STEP_HUB} test_mse.10 max_steps=18000"
    ),
    "mn.hub.add.every.18000.mse.100": (
        f"range {MNIST_ADD_EVERY_STEP_HUB} test_mse.100 max_steps=18000"
    ),
    "mn.hub.add.every.18000.minutes": (
        f"minutes {MNIST_ADD_EVERY_STEP_HUB} max_steps=18000"
    ),
    "mn.hub.count": f"report_table {MNIST_COUNT_LINEAR_HUB}",
    "mn.hub.count.runs": f"runs {MNIST_COUNT_LINEAR_HUB}",
    "mn.hub.count.lstm+gru.10": (
        f"range {MNIST_COUNT_LINEAR_HUB} test_accuracy.10 model=lstm|gru"
    ),
    "mn.hub.count.lstm+gru.mse.10": (
        f"range {MNIST_COUNT_LINEAR_HUB} test_mse.10 model=lstm|gru"
    ),
    "mn.hub.count.lstm+gru.mse.1": (
        f"range {MNIST_COUNT_LINEAR_HUB} test_mse.1 model=lstm|gru"
    ),
    "mn.hub.count.lstm+gru.classified.1": (
        f"percent_range {MNIST_COUNT_LINEAR_HUB} test_classification model=lstm|gru"
    ),
    "mn.hub.count.rnn.10": (
        f"range {MNIST_COUNT_LINEAR_HUB} test_accuracy.10 model=rnn_tanh|rnn_relu"
    ),
    "mn.hub.count.baselines.1": (
        f"range {MNIST_COUNT_LINEAR_HUB} test_accuracy.1 "
        "model=lstm|gru|rnn_tanh|rnn_relu"
    ),
    "mn.hub.count.baselines.100": (
        f"range {MNIST_COUNT_LINEAR_HUB} test_accuracy.100 "
        "model=lstm|gru|rnn_tanh|rnn_relu"
    ),
    "mn.hub.count.minutes": (
        f"minutes {MNIST_COUNT_LINEAR_HUB} model=rnn_tanh|rnn_relu|nac|nalu"
    ),
    "mn.hub.count.remade.minutes": f"minutes {MNIST_COUNT_LINEAR_HUB} model=lstm|gru",
    "mn.hub.count.remade.changed": (
        f"changed {MNIST_COUNT_LINEAR_HUB} {MNIST_COUNT_LINEAR_HUB_67342F6} "
        "test_mse model=lstm|gru"
    ),
    "mn.hub.count.softmax.nac.1": (
        f"value {MNIST_COUNT_HUB} test_accuracy.1 .1% model=nac"
    ),
    "mn.hub.count.softmax.nac.mse.10": (
        f"value {MNIST_COUNT_HUB} test_mse.10 .3g model=nac"
    ),
    "mn.hub.count.softmax.nac.mse.100": (
        f"range {MNIST_COUNT_HUB} test_mse.100 model=nac"
    ),
    "mn.hub.count.nac.1": f"value {MNIST_COUNT_LINEAR_HUB} test_accuracy.1 .1% model=nac",
    "mn.hub.count.nac.mse.10": (
        f"value {MNIST_COUNT_LINEAR_HUB} test_mse.10 .3g model=nac"
    ),
    "mn.hub.count.nac.mse.1000": (
        f"range {MNIST_COUNT_LINEAR_HUB} test_mse.1000 model=nac"
    ),
    "mn.hub.count.nalu.mse.10": (
        f"range {MNIST_COUNT_LINEAR_HUB} test_mse.10 model=nalu"
    ),
    "mn.hub.product": f"report_table {MNIST_PRODUCT_HUB}",
    "mn.hub.product.runs": f"runs {MNIST_PRODUCT_HUB}",
    "mn.hub.sum": f"report_table {MNIST_SUM_HUB}",
    "mn.hub.sum.runs": f"runs {MNIST_SUM_HUB}",
    "mn.hub.sum.solved.1": f"range {MNIST_SUM_HUB} test_accuracy.1 model=solved",
    "mn.hub.sum.solved.mse.1": f"range {MNIST_SUM_HUB} test_mse.1 model=solved",
    "mn.hub.sum.nau.mse.1": (
        f"range {MNIST_SUM_HUB} test_mse.1 model=nau input_regularization=0.0"
    ),
    "mn.hub.product.nmu.1": (
        f"range {MNIST_PRODUCT_HUB} test_accuracy.1 model=nmu|nac_mul_nmu"
    ),
    "mn.hub.product.lstm.1": f"range {MNIST_PRODUCT_HUB} test_accuracy.1 model=lstm",
    "mn.hub.product.solved.1": (
        f"range {MNIST_PRODUCT_HUB} test_accuracy.1 model=solved"
    ),
    "mn.hub.product.best.1": f"range {MNIST_PRODUCT_HUB} test_accuracy.1",
    "mn.add.lstm+2.1": (
        f"range {MNIST_ADD_QUICK} test_accuracy.1 model=lstm|gru|rnn_tanh"
    ),
    "mn.add.lstm+2.2": (f"range {MNIST_ADD_QUICK} test_mse.10 model=lstm|gru|rnn_tanh"),
    "mn.add.lstm+2.3": (
        f"range {MNIST_ADD_QUICK} test_mse.100 model=lstm|gru|rnn_tanh"
    ),
    "mn.add.lstm+2.4": (
        f"range {MNIST_ADD_QUICK} test_mse.1000 model=lstm|gru|rnn_tanh"
    ),
    "mn.add.nac+nalu": f"range {MNIST_ADD_QUICK} test_mse.10 model=nac|nalu",
    "mn.add.rnn_relu.1": (
        f"value {MNIST_ADD_QUICK} test_accuracy.1 .1% model=rnn_relu"
    ),
    "mn.add.rnn_relu.2": f"value {MNIST_ADD_QUICK} test_mse.1 .0f model=rnn_relu",
    "mn.add.rnn_relu.3": (f"value {MNIST_ADD_QUICK} test_mse.10 .0f model=rnn_relu"),
    "mn.count.lstm+3.1": (
        f"range {MNIST_COUNT_QUICK} test_accuracy.1 model=lstm|gru|rnn_tanh|rnn_relu"
    ),
    "mn.count.lstm+3.2": (
        f"range {MNIST_COUNT_QUICK} test_mse.10 model=lstm|gru|rnn_tanh|rnn_relu"
    ),
    "mn.count.lstm+3.3": (
        f"range {MNIST_COUNT_QUICK} test_mse.100 model=lstm|gru|rnn_tanh|rnn_relu"
    ),
    "mn.count.lstm+3.4": (
        f"range {MNIST_COUNT_QUICK} test_mse.1000 model=lstm|gru|rnn_tanh|rnn_relu"
    ),
    "mn.count.nac.1": f"mean {MNIST_COUNT_QUICK} test_mse.10 model=nac",
    "mn.count.nac.2": f"mean {MNIST_COUNT_QUICK} test_mse.1000 model=nac",
    "mn.count.nac.3": (f"value {MNIST_COUNT_QUICK} test_accuracy.1 .1% model=nac"),
    "mn.count.nalu": f"mean {MNIST_COUNT_QUICK} test_mse.10 model=nalu",
    "mn.h.add": f"hours {MNIST_ADD_QUICK}",
    "mn.h.count": f"hours {MNIST_COUNT_QUICK}",
    "mn.h.product": f"hours {MNIST_PRODUCT_QUICK}",
    "mn.h.sum": f"hours {MNIST_SUM_QUICK}",
    "mn.nac_mul+3.1": (
        f"ratio_to_solved {MNIST_PRODUCT_QUICK} 1 "
        "model=nac_mul|nac_mul_sigmoid|nalu|lstm"
    ),
    "mn.nac_mul+3.2": (
        f"ratio_to_solved {MNIST_PRODUCT_QUICK} 3-5 "
        "model=nac_mul|nac_mul_sigmoid|nalu|lstm"
    ),
    "mn.nac_mul_nmu.0.0.1": (
        f"ratio_to_solved {MNIST_PRODUCT_QUICK} 1-13,15-20 model=nac_mul_nmu "
        "input_regularization=0.0"
    ),
    "mn.nac_mul_nmu.0.0.2": (
        f"ratio_to_solved {MNIST_PRODUCT_QUICK} 14 model=nac_mul_nmu "
        "input_regularization=0.0"
    ),
    "mn.nac_mul_nmu.1.0.1": (
        f"below {MNIST_PRODUCT_QUICK} sparsity_error 1e-9 model=nac_mul_nmu "
        "input_regularization=1.0"
    ),
    "mn.nac_mul_nmu.1.0.2": (
        f"maximum {MNIST_PRODUCT_QUICK} sparsity_error model=nac_mul_nmu "
        "input_regularization=1.0"
    ),
    "mn.nac_mul_nmu.1.0.3": (
        f"ratio_to_solved {MNIST_PRODUCT_QUICK} 1-7,9,15-20 model=nac_mul_nmu "
        "input_regularization=1.0"
    ),
    "mn.nac_mul_nmu.1.0.4": (
        f"ratio_to_solved {MNIST_PRODUCT_QUICK} 8,10-14 model=nac_mul_nmu "
        "input_regularization=1.0"
    ),
    "mn.product": f"report_table {MNIST_PRODUCT_QUICK}",
    "mn.product.nmu.0.0.1": (
        f"ratio_to_solved {MNIST_PRODUCT_QUICK} 1-5 model=nmu input_regularization=0.0"
    ),
    "mn.product.nmu.0.0.2": (
        f"ratio_to_solved {MNIST_PRODUCT_QUICK} 10 model=nmu input_regularization=0.0"
    ),
    "mn.product.nmu.0.0.3": (
        f"ratio_to_solved {MNIST_PRODUCT_QUICK} 6-20 model=nmu input_regularization=0.0"
    ),
    "mn.product.nmu.1.0": (
        f"ratio_to_solved {MNIST_PRODUCT_QUICK} 1-20 model=nmu input_regularization=1.0"
    ),
    "mn.product.solved.3.1": (
        f"ratio_to_solved {MNIST_PRODUCT_QUICK} 1,3,5,7,9,11,13,15,17,19 model=solved "
        "seed=3"
    ),
    "mn.product.solved.3.2": (
        f"ratio_to_solved {MNIST_PRODUCT_QUICK} 2,4,6,8,10,12,14,16,18,20 model=solved "
        "seed=3"
    ),
    "mn.product.solved.3.3": (
        f"value {MNIST_PRODUCT_QUICK} test_mse.1 .0f model=solved seed=3"
    ),
    "mn.pub.mnist_add.1": (
        f"paper {TRASK2018_TABLE10} accuracy_1 .0f task=mnist_add "
        "model=lstm|gru|rnn_tanh"
    ),
    "mn.pub.mnist_add.2": (
        f"paper {TRASK2018_TABLE10} accuracy_1 .0f task=mnist_add model=rnn_relu"
    ),
    "mn.pub.mnist_add.3": (
        f"paper {TRASK2018_TABLE10} mse_10 - task=mnist_add model=lstm|gru|rnn_tanh"
    ),
    "mn.pub.mnist_add.4": (
        f"paper {TRASK2018_TABLE10} mse_10 - task=mnist_add model=nac"
    ),
    "mn.pub.mnist_add.5": (
        f"paper {TRASK2018_TABLE10} mse_10 - task=mnist_add model=nalu"
    ),
    "mn.pub.mnist_add.6": (
        f"paper {TRASK2018_TABLE10} mse_10 - task=mnist_add model=rnn_relu"
    ),
    "mn.pub.mnist_add.7": (
        f"paper {TRASK2018_TABLE10} mse_100 - task=mnist_add model=lstm|gru|rnn_tanh"
    ),
    "mn.pub.mnist_add.8": (
        f"paper {TRASK2018_TABLE10} mse_1000 - task=mnist_add model=lstm|gru|rnn_tanh"
    ),
    "mn.pub.mnist_add.9": (
        f"paper {TRASK2018_TABLE10} mse_1000 - task=mnist_add model=nac"
    ),
    "mn.pub.mnist_add.10": (
        f"paper {TRASK2018_TABLE10} mse_1000 - task=mnist_add model=nalu"
    ),
    "mn.pub.mnist_add.nac+rnn_relu.100": (
        f"paper {TRASK2018_TABLE10} mse_100 - task=mnist_add model=nac|rnn_relu"
    ),
    "mn.pub.mnist_add.nac.1": (
        f"paper {TRASK2018_TABLE10} accuracy_1 .1f task=mnist_add model=nac"
    ),
    "mn.pub.mnist_add.nalu.1": (
        f"paper {TRASK2018_TABLE10} accuracy_1 .1f task=mnist_add model=nalu"
    ),
    "mn.pub.mnist_count.1": (
        f"paper {TRASK2018_TABLE10} accuracy_1 .1f task=mnist_count model=gru"
    ),
    "mn.pub.mnist_count.2": (
        f"paper {TRASK2018_TABLE10} accuracy_1 .1f task=mnist_count model=lstm"
    ),
    "mn.pub.mnist_count.3": (
        f"paper {TRASK2018_TABLE10} accuracy_1 .1f task=mnist_count model=nac"
    ),
    "mn.pub.mnist_count.4": (
        f"paper {TRASK2018_TABLE10} accuracy_1 .1f task=mnist_count model=rnn_relu"
    ),
    "mn.pub.mnist_count.5": (
        f"paper {TRASK2018_TABLE10} accuracy_1 .1f task=mnist_count model=rnn_tanh"
    ),
    "mn.pub.mnist_count.6": (
        f"paper {TRASK2018_TABLE10} mse_10 - task=mnist_count "
        "model=lstm|gru|rnn_tanh|rnn_relu"
    ),
    "mn.pub.mnist_count.7": (
        f"paper {TRASK2018_TABLE10} mse_10 - task=mnist_count model=nac"
    ),
    "mn.pub.mnist_count.8": (
        f"paper {TRASK2018_TABLE10} mse_100 - task=mnist_count "
        "model=lstm|gru|rnn_tanh|rnn_relu"
    ),
    "mn.pub.mnist_count.9": (
        f"paper {TRASK2018_TABLE10} mse_1000 - task=mnist_count "
        "model=lstm|gru|rnn_tanh|rnn_relu"
    ),
    "mn.pub.mnist_count.10": (
        f"paper {TRASK2018_TABLE10} mse_1000 - task=mnist_count model=nac"
    ),
    "mn.solved.not_3": (f"range {MNIST_PRODUCT_QUICK} test_mse.1 model=solved seed!=3"),
    "mn.sum.1,10,100,100": f"solved_threshold {MNIST_SUM_QUICK} 1,10,100,1000",
    "mn.sum.lstm": f"mean {MNIST_SUM_QUICK} test_mse.1 model=lstm",
    "mn.sum.nac": f"range {MNIST_SUM_QUICK} test_mse.1 model=nac",
    "mn.sum.nau.0.0.1": (
        f"mean {MNIST_SUM_QUICK} sparsity_error model=nau input_regularization=0.0"
    ),
    "mn.sum.nau.0.0.2": (
        f"mean {MNIST_SUM_QUICK} test_mse.1000 model=nau input_regularization=0.0"
    ),
    "mn.sum.nau.1.0.1": (
        f"mean {MNIST_SUM_QUICK} sparsity_error model=nau input_regularization=1.0"
    ),
    "mn.sum.nau.1.0.2": (
        f"mean {MNIST_SUM_QUICK} test_mse.1 model=nau input_regularization=1.0"
    ),
    "mn.sum.nau.1.0.3": (
        f"mean {MNIST_SUM_QUICK} test_mse.10 model=nau input_regularization=1.0"
    ),
    "mn.sum.nau.1.0.4": (
        f"mean {MNIST_SUM_QUICK} test_mse.100 model=nau input_regularization=1.0"
    ),
    "mn.sum.nau.1.0.5": (
        f"mean {MNIST_SUM_QUICK} test_mse.1000 model=nau input_regularization=1.0"
    ),
    "mn.sum.solved": f"range {MNIST_SUM_QUICK} test_mse.1 model=solved",
    "mn.sum.sparsity.nac": f"range {MNIST_SUM_QUICK} sparsity_error model=nac",
}
