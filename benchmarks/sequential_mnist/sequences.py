"""The sequential MNIST tasks (Madsen & Johansen 2020, §4.2, app. D; Trask et
al. 2018, app. C) and their models, read by the command line before
TensorFlow loads and by the runner."""

#: Madsen §4.2 and app. D: the tasks' operation, digits and lengths.
SEQUENCES = {
    "mnist_product": {
        "operation": "product",
        "digits": tuple(range(1, 10)),
        "length": 2,
        "test_lengths": tuple(range(1, 21)),
    },
    "mnist_sum": {
        "operation": "sum",
        "digits": tuple(range(10)),
        "length": 10,
        "test_lengths": (1, 10, 100, 1_000),
    },
    # Trask app. C: the count of each digit, and the sum, after the sequence.
    "mnist_count": {
        "operation": "count",
        "digits": tuple(range(10)),
        "length": 10,
        "test_lengths": (1, 10, 100, 1_000),
    },
    "mnist_add": {
        "operation": "sum",
        "digits": tuple(range(10)),
        "length": 10,
        "test_lengths": (1, 10, 100, 1_000),
    },
}
#: Madsen's tasks (the CNN outputs one number per digit); Trask's read ten.
MADSEN_TASKS = ("mnist_product", "mnist_sum")
PAPER_STEPS = {
    "mnist_product": 430_000,
    "mnist_sum": 86_000,
    "mnist_count": 86_000,
    "mnist_add": 86_000,
}
#: The models of each task (Madsen figures 4, 13-15; Trask table 10).
MODELS = {
    "mnist_product": (
        "nmu",
        "nac_mul_nmu",
        "nac_mul_sigmoid",
        "nac_mul",
        "nalu",
        "lstm",
        "solved",
    ),
    "mnist_sum": ("nau", "nac", "lstm", "solved"),
    "mnist_count": ("lstm", "gru", "rnn_tanh", "rnn_relu", "nac", "nalu"),
    "mnist_add": ("lstm", "gru", "rnn_tanh", "rnn_relu", "nac", "nalu"),
}
#: The rows' tasks this folder runs (`benchmarks.registry`).
TASKS = tuple(SEQUENCES)
#: The heads the CNN's ten outputs may have in Trask's tasks.
CNN_HEADS = ("linear", "softmax")
#: The head of counting rows made before configurations named one.
LEGACY_COUNT_HEAD = "softmax"
#: What Trask's tasks may train on: the count or sum after the sequence
#: only, or the running one at every step (Madsen's port of the task).
TARGETS = ("final", "every-step")


def cnn_head(row_or_config):
    """The head of the CNN of a Trask task's row or configuration: `linear`
    (ten learned features) unless it names `softmax` (class
    probabilities), or is a counting row made before configurations named
    a head."""
    if row_or_config["task"] == "mnist_count":
        return row_or_config.get("cnn_head", LEGACY_COUNT_HEAD)
    return row_or_config.get("cnn_head", "linear")


def targets(row_or_config):
    """What a row's or configuration's model trained on: `every-step`
    targets (Madsen's tasks; Trask's when it names them) or the `final`
    one (Trask's otherwise, and every row made before configurations
    named targets)."""
    if row_or_config["task"] in MADSEN_TASKS:
        return "every-step"
    return row_or_config.get("targets", "final")
