"""Export, then serve without keras_nalm: a fresh TensorFlow process and
TensorFlow Serving's REST format on a loopback HTTP server."""

import importlib.util
import json
import pathlib
import select
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

import keras_nalm

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"
#: The server's start (TensorFlow's import and the SavedModel's load).
START_SECONDS = 120


def _example(name):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXPORT = _example("02_export_and_serve")


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    directory = str(tmp_path_factory.mktemp("serving") / "model")
    keras_nalm.export_saved_model(EXPORT.solved_model(), directory)
    return directory


def _run(*arguments):
    return subprocess.run(
        [sys.executable, *arguments], capture_output=True, text=True, timeout=300
    )


@pytest.mark.large
def test_a_fresh_tensorflow_process_calls_the_signature(exported):
    completed = _run("-c", EXPORT.CALL_SIGNATURE, exported)
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert "{'output_0': [10.0, -40.0]}" in completed.stdout


@pytest.mark.large
def test_saved_model_cli_shows_the_signature(exported):
    completed = _run(
        "-m", "tensorflow.python.tools.saved_model_cli", "show", "--dir", exported,
        "--tag_set", "serve", "--signature_def", "serving_default",
    )  # fmt: skip
    assert completed.returncode == 0, completed.stderr[-2000:]
    assert "inputs['x'] tensor_info" in completed.stdout
    assert "shape: (-1, 3)" in completed.stdout


def _wait_for_port(process):
    """The port of the server's "serving on PORT" line, or None."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline and process.poll() is None:
        ready, _, _ = select.select([process.stdout], [], [], 1.0)
        line = process.stdout.readline() if ready else ""
        if line.startswith("serving on"):
            return int(line.split()[-1])
    return None


@pytest.fixture
def server(exported):
    with subprocess.Popen(
        [sys.executable, str(EXAMPLES / "serve_saved_model.py"), exported]
        + ["--port", "0", "--model-name", "nalm"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    ) as process:
        port = _wait_for_port(process)
        if port is None:
            process.kill()
            pytest.fail(f"the server did not start (exit code {process.poll()})")
        yield f"http://127.0.0.1:{port}"
        process.terminate()


def _not_json(constant):
    raise ValueError(f"{constant} is not JSON")


def _strict_json(text):
    return json.loads(text, parse_constant=_not_json)


def _post(url, body, path="/v1/models/nalm:predict"):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, _strict_json(response.read())
    except urllib.error.HTTPError as error:
        return error.code, _strict_json(error.read())


@pytest.mark.large
def test_the_server_answers_rest_requests_and_survives_bad_ones(server):
    assert _post(server, {"instances": [[3.0, 1.0, 5.0]]}) == (
        200,
        {"predictions": [[10.0]]},
    )
    bad = [
        (b"{not json", "not JSON"),
        ({"rows": [[1.0, 2.0, 3.0]]}, '"instances" or "inputs"'),
        ({"instances": [[1.0, 2.0]]}, "shape [1, 2]"),
        ({"instances": [["a", "b", "c"]]}, "not float32"),
    ]
    for body, message in bad:
        status, answer = _post(server, body)
        assert status == 400 and message in answer["error"], (body, answer)
    status, answer = _post(server, {"instances": []}, path="/v1/models/other:predict")
    assert status == 404 and "POST /v1/models/nalm:predict" in answer["error"]
    assert _post(server, {"inputs": [[3.0, 1.0, 5.0], [10.0, 30.0, 2.0]]}) == (
        200,
        {"predictions": [[10.0], [-40.0]]},
    )
    # beyond float32's range: a null prediction, not NaN (which is not JSON)
    assert _post(server, {"instances": [[1e39, 1.0, 5.0], [3.0, 1.0, 5.0]]}) == (
        200,
        {"predictions": [[None], [10.0]]},
    )
