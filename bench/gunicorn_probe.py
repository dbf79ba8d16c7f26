"""gunicorn settings for the load bench: the product's own (``gunicorn.conf.py``, read as
gunicorn reads it) plus one probe. A request from the bench's generator carries
``X-Bench-Sent`` (the wall-clock time it was written to the socket); when a worker takes it,
``pre_request`` appends "<now> <now - sent>" to ``$BENCH_PROBE_DIR/wait-<pid>.txt``. That is
the time the request waited for a worker (the accept queue and the parse), measured on the
server's side, apart from anything the generator's own loop adds when it reads the answer.
Both the product's and the limit's gunicorn use it, so the two stay alike."""

import os
import runpy
import time
from pathlib import Path

globals().update(
    {
        name: value
        for name, value in runpy.run_path(
            str(Path(__file__).parent.parent / "gunicorn.conf.py")
        ).items()
        if not name.startswith("__")
    }
)

_PROBE_DIR = os.environ.get("BENCH_PROBE_DIR", "")
_out = {}


def pre_request(worker, req):
    if not _PROBE_DIR:
        return
    for name, value in req.headers:
        if name == "X-BENCH-SENT":
            if worker.pid not in _out:  # one line-buffered file a worker: a write a request
                path = Path(_PROBE_DIR) / f"wait-{worker.pid}.txt"
                _out[worker.pid] = open(path, "a", buffering=1)  # noqa: SIM115
            now = time.time()
            _out[worker.pid].write(f"{now:.4f} {(now - float(value)) * 1000:.2f}\n")
            return
