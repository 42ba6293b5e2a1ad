"""Numbers in words and programs (Trask et al. 2018, app. D table 11, app. E).

`--task language_to_number`: a model reads a number 0-999 written in
British English words ("two hundred and thirty five", one token per word)
and outputs its value. The split is the paper's: 169 training numbers (0-19
and a seeded sample of the rest, topped up so that every token is trained),
200 validation, 631 test (`benchmarks.data.language.split_numbers`). Models
(app. D, table 11): an embedding and an LSTM whose final state
(`lstm`) or summed states (`lstm_summed`) feed a linear output, or whose
summed states feed a NAC (`lstm_nac`) or a NALU (`lstm_nalu`): app. D
compares the NAC and NALU with the summed-state LSTM. (A NAC's output is
at most the sum of its inputs' magnitudes: 5 words of `size` LSTM states
in [-1, 1] bound it by 5 · size, below most numbers.)

`--task program_add|program_if` (app. E, figure 6): programs of Zaremba &
Sutskever's families (`print((a+b))`; `print((a+b) if c>d else (a-b))`)
read character by character, their printed integer the target
(`benchmarks.language.programs.ProgramBatches`). Models: `lstm` and `ugrnn` (Collins
et al. 2017, `keras_nalm.layers.UGRNNCell`) read out from their final
state, `lstm_nac` and `lstm_nalu` from the LSTM's states summed over the
characters (for the NAC, a recurrent NAC that adds its per-step outputs),
`dnc` (`keras_nalm.layers.DNCCell`, Graves et al. 2016: an LSTM controller
of `size` units with 16 memory slots of 16 and one read head, our choice)
read out from [h_t; r_t] at the last character, and `nac_rnn` and
`nalu_rnn`, the recurrent NAC and NALU reading the program themselves: the
unit is the recurrent cell over the characters' embeddings, h_t =
unit([e(x_t), h_{t-1}]) (`keras_nalm.layers.ArithmeticCell`, as app. B's
recurrent units), read out by a NAC or NALU. Not in the paper (app. E
gives no ranges, sizes or steps), chosen here and kept arguments: training
operands of 1-2 digits (`--train-digits`), extrapolation sets of 3, 4, 5
and 6 digits (`--test-digits`), 50 000 training programs, batch 64, MSE,
100 000 steps (`paper`; `quick`: 5 000). Rows carry, at the step of lowest
validation MAE, `mae` and `accuracy` (of the rounded prediction) per digit
count.

    python -m benchmarks.language --task language_to_number --model all \\
        --size 16,32 --learning-rate 0.01,0.001 --seeds 0-9 --preset paper \\
        --output FILE.jsonl

Training (app. D): Adam on the whole training set every step, 300 000
steps (`paper`; `quick`: 10 000), evaluated every 1 000 steps; each run
reports its train, validation and test MAE at its best validation step,
and the report chooses, per model, the size, learning rate and seed of the
lowest validation MAE (the paper selects over sizes {16, 32}, learning
rates {0.01, 0.001} and 10 initialisations). Not in the paper, chosen here
and kept arguments: the embedding size (`--embedding`, default 256, the
authors' recollection), the loss (MSE), PyTorch's Adam, one split
(`--split-seed`, default 0) for every run, and the unit of the prediction
(`--output-scale`, default 1: the output layer's value is the number;
1000: it is the number in thousands, which lets the NAC, whose output is
bounded by its inputs, reach 999).
"""

import functools

from benchmarks.core import arguments
from benchmarks.core import sweep
from benchmarks.core.rows import optimizer_name
from benchmarks.core.runs import Engine
from benchmarks.core.runs import RunSpec
from benchmarks.core.runs import optimizer_factory
from benchmarks.core.task import Task
from benchmarks.language import claims
from benchmarks.language import models
from benchmarks.language import report

TASKS = models.TASKS
PROGRAM_TASKS = models.PROGRAM_TASKS
LANGUAGE_MODELS = models.LANGUAGE_MODELS
PROGRAM_MODELS = models.PROGRAM_MODELS


def models_of(task):
    return PROGRAM_MODELS if task in PROGRAM_TASKS else LANGUAGE_MODELS


def build_parser(prog="python -m benchmarks.language"):
    parser = arguments.new_parser(prog, __doc__)
    parser.add_argument("--task", choices=TASKS, default="language_to_number")
    parser.add_argument(
        "--model",
        default="all",
        help="a model of the task, an a,b list or all: language_to_number: "
        f"{', '.join(LANGUAGE_MODELS)}; programs: {', '.join(PROGRAM_MODELS)}",
    )
    parser.add_argument(
        "--size",
        type=arguments.positive_list(int),
        default=[16, 32],
        help="the LSTM's units, a list (app. D: 16,32)",
    )
    parser.add_argument(
        "--learning-rate",
        type=arguments.positive_list(float),
        default=[0.01, 0.001],
        help="Adam's learning rates, a list (app. D: 0.01,0.001)",
    )
    parser.add_argument("--embedding", type=arguments.positive_int, default=256)
    parser.add_argument(
        "--output-scale",
        type=arguments.positive_float,
        default=1.0,
        help="language_to_number: the models predict the number in this unit "
        "(a fixed factor after the output layer; default 1, as nothing in "
        "app. D scales the targets)",
    )
    parser.add_argument(
        "--split-seed",
        type=int,
        default=0,
        help="the language split's seed; programs: the data sets' seed",
    )
    parser.add_argument(
        "--train-digits",
        type=arguments.positive_list(int),
        default=[1, 2],
        help="programs: the operands' digits in training, low,high (default 1,2)",
    )
    parser.add_argument(
        "--test-digits",
        type=arguments.positive_list(int),
        default=[3, 4, 5, 6],
        help="programs: the digits of each extrapolation set (default 3,4,5,6)",
    )
    parser.add_argument(
        "--train-size",
        type=arguments.positive_int,
        default=50_000,
        help="programs: training programs",
    )
    parser.add_argument(
        "--batch-size", type=arguments.positive_int, default=64, help="programs: batch"
    )
    arguments.add_optimizer_argument(parser)
    arguments.add_common_arguments(parser, default_seeds="0-9")
    return parser


def parse_arguments(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    arguments.check_names_of_task(parser, args, models_of(args.task))
    low, *rest = args.train_digits
    if len(args.train_digits) != 2 or low > rest[0]:
        parser.error(
            "argument --train-digits: expected low,high with low <= high, got "
            + ",".join(map(str, args.train_digits))
        )
    return args


def jobs(args):
    """The jobs of the parsed command line (`parse_arguments`)."""
    steps = (
        args.max_steps
        or (models.PAPER_STEPS if args.preset == "paper" else models.QUICK_STEPS)[
            args.task
        ]
    )
    jobs = []
    if args.task not in models.PROGRAM_TASKS:
        task_options = {"output_scale": args.output_scale}
    else:
        task_options = {
            "train_digits": list(args.train_digits),
            "test_digits": list(args.test_digits),
            "train_size": args.train_size,
            "batch_size": args.batch_size,
        }
    for model in args.model:
        for size in args.size:
            for learning_rate in args.learning_rate:
                config = {
                    "task": args.task,
                    "model": model,
                    "size": size,
                    "learning_rate": learning_rate,
                    "embedding": args.embedding,
                    "split_seed": args.split_seed,
                    **task_options,
                    "preset": args.preset,
                    "steps": steps,
                    "optimizer": args.optimizer,
                }
                jobs += sweep.jobs_over_seeds(config, args.seeds)
    return jobs


def run_spec(config):
    """The RunSpec of a job's configuration (a dict)."""
    from benchmarks.language import runner
    from benchmarks.language.vocabulary import NUMBER_VOCABULARY
    from benchmarks.language.vocabulary import PROGRAM_VOCABULARY

    return RunSpec(
        program_key=(
            tuple(config.get("test_digits", ())),
            config["task"],
            config["model"],
            config["size"],
            config["embedding"],
            config["learning_rate"],
            optimizer_name(config),
            config.get("output_scale", 1.0),
        ),
        build_model=functools.partial(
            runner.build_model,
            config["model"],
            config["size"],
            config["embedding"],
            PROGRAM_VOCABULARY
            if config["task"] in PROGRAM_TASKS
            else NUMBER_VOCABULARY,
            config.get("output_scale", 1.0),
        ),
        make_source=lambda seed: runner.make_source(config),
        make_optimizer=optimizer_factory(config, learning_rate=config["learning_rate"]),
        steps=config["steps"],
    )


#: Trask's language to number and program evaluation tasks:
#: `python -m benchmarks.language`.
TASK = Task(
    name="language",
    rows=TASKS,
    parse_arguments=parse_arguments,
    jobs=jobs,
    train=Engine(run_spec),
    mixed_outputs=True,
    reports=report.REPORTS,
    claims=claims.CLAIMS,
    named=claims.NAMED,
)
