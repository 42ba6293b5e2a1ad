"""The counter-based generators a batch source can draw with (plain Python,
no import, so that command lines can read the names without loading
TensorFlow):

- "threefry2x32": Threefry-2x32-20 (`keras_nalm.engine.threefry`), the
  default, with Random123's standard 20 rounds;
- "threefry2x32_13": 13 rounds, faster;
- "threefry" and "philox": TensorFlow's own `tf.random.stateless_uniform`
  generators ("threefry" made the results committed before threefry2x32;
  XLA only).
"""

ALGORITHMS = ("threefry2x32", "threefry2x32_13", "threefry", "philox")
DEFAULT_ALGORITHM = "threefry2x32"
#: The rounds of each of our Threefry-2x32 generators.
THREEFRY_ROUNDS = {"threefry2x32": 20, "threefry2x32_13": 13}
