"""Serve an exported SavedModel over HTTP in TensorFlow Serving's REST
format, with TensorFlow and the standard library only (keras_nalm is not
imported: the SavedModel holds the traced computation).

    python examples/02_export_and_serve.py          # writes /tmp/nalm_serving
    saved_model_cli show --dir /tmp/nalm_serving --tag_set serve \\
        --signature_def serving_default
    python examples/serve_saved_model.py /tmp/nalm_serving --port 8501 &
    curl -d '{"instances": [[1.0, 2.0, 3.0]]}' \\
        http://127.0.0.1:8501/v1/models/nalm:predict

`POST /v1/models/<name>:predict` takes `{"instances": [...]}` (one input
per row) or `{"inputs": [...]}` (the whole batch) and answers
`{"predictions": [...]}` from the `serving_default` signature. A request
that is not JSON, has neither key, or whose values do not fit the
signature's shape and dtype gets a 400 with `{"error": "..."}`, and the
server keeps serving. Every answer is strict JSON: a prediction that is not
a finite number (an input beyond float32's range, say) is `null`. `--port
0` picks a free port, printed on the first line of output as `serving on
PORT`.
"""

import argparse
import json
import sys
from http.server import BaseHTTPRequestHandler
from http.server import ThreadingHTTPServer

import numpy as np
import tensorflow as tf


class BadRequest(ValueError):
    """A request the model cannot answer; its message goes to the client."""


def signature_input(signature):
    """(name, spec) of a signature's single input."""
    _, specs = signature.structured_input_signature
    if len(specs) != 1:
        raise SystemExit(f"this server serves one-input signatures, not {specs}")
    return next(iter(specs.items()))


def parse_inputs(body, spec):
    """The request's batch as an array of the signature's dtype, or a
    BadRequest saying what is wrong."""
    try:
        request = json.loads(body)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise BadRequest(f"the body is not JSON: {error}") from None
    if not isinstance(request, dict) or not {"instances", "inputs"} & set(request):
        raise BadRequest('the body needs "instances" or "inputs"')
    values = request.get("instances", request.get("inputs"))
    try:
        batch = np.asarray(values, dtype=spec.dtype.as_numpy_dtype)
    except (TypeError, ValueError) as error:
        raise BadRequest(f"the values are not {spec.dtype.name} numbers: {error}")
    if not spec.shape.is_compatible_with(batch.shape):
        raise BadRequest(
            f"the inputs have shape {list(batch.shape)}; the model takes "
            f"{spec.shape.as_list()} (None: any size)"
        )
    return batch


def finite_or_null(values):
    """Nested lists of predictions with every non-finite number as None
    (JSON's null: NaN and infinities are not JSON)."""
    if isinstance(values, list):
        return [finite_or_null(value) for value in values]
    return values if np.isfinite(values) else None


def make_handler(signature, model_name):
    _, spec = signature_input(signature)
    route = f"/v1/models/{model_name}:predict"

    class Handler(BaseHTTPRequestHandler):
        def _reply(self, status, payload):
            body = json.dumps(payload, allow_nan=False).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self):
            if self.path != route:
                self._reply(404, {"error": f"no route {self.path}; POST {route}"})
                return
            length = int(self.headers.get("Content-Length", 0))
            try:
                batch = parse_inputs(self.rfile.read(length), spec)
            except BadRequest as error:
                self._reply(400, {"error": str(error)})
                return
            outputs = signature(tf.constant(batch))
            (predictions,) = outputs.values()
            predictions = finite_or_null(predictions.numpy().tolist())
            self._reply(200, {"predictions": predictions})

        def log_message(self, format, *args):  # quiet: one line per request
            sys.stderr.write(f"{self.command} {self.path} {args[1]}\n")

    return Handler


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("directory", help="the exported SavedModel")
    parser.add_argument("--port", type=int, default=8501)
    parser.add_argument("--model-name", default="nalm")
    args = parser.parse_args(argv)
    signature = tf.saved_model.load(args.directory).signatures["serving_default"]
    server = ThreadingHTTPServer(
        ("127.0.0.1", args.port), make_handler(signature, args.model_name)
    )
    print(f"serving on {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
