"""Data that several tasks share: the static arithmetic task and its batch
source (`arithmetic_task`, `arithmetic_batches`: Madsen's dataset, the
Single Module Task and the §1.1 function), and the loaders of MNIST and the
Penn Treebank (`loaders`), which never download."""
