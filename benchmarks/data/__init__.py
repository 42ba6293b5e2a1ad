"""Data that several tasks share: the static arithmetic task and its batch
source (`arithmetic_task`, `arithmetic_batches`: Madsen's dataset, the
Single Module Task and the §1.1 function), the NRU paper's synthetic
sequence tasks (`sequences`: copy, variable copy and denoising, which the
NRU runner, the tuner and the speed measurements share), and the loaders
of MNIST and the Penn Treebank (`loaders`), which never download."""
