"""gunicorn with the project's settings (``gunicorn.conf.py``): a worker takes the next request as
soon as it has answered, whether or not the client that got the answer closes its side
(``config/gunicorn_close.py``). With gunicorn's own close, each client that keeps its socket
open after the answer holds the only worker for 2 s (venue mode runs one)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REQUEST = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def one_worker():
    port = _free_port()
    command = [
        sys.executable, "-m", "gunicorn", "--config", str(ROOT / "gunicorn.conf.py"),
        "--workers", "1", "--bind", f"127.0.0.1:{port}", "tests.config.closing_app:app",
    ]  # fmt: skip
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    else:
        server.kill()
        pytest.fail(f"gunicorn did not start: {server.stderr.read().decode()[-2000:]}")
    yield port
    server.terminate()
    server.wait(timeout=20)


def _answer(sock) -> bytes:
    sock.sendall(REQUEST)
    got = b""
    while b"\r\n\r\nok" not in got:
        chunk = sock.recv(4096)
        if not chunk:
            break
        got += chunk
    return got


def test_clients_that_keep_their_socket_open_do_not_hold_the_worker(one_worker):
    held = []
    started = time.monotonic()
    for _ in range(5):  # each reads its answer and then keeps its socket open
        sock = socket.create_connection(("127.0.0.1", one_worker), timeout=15)
        assert _answer(sock).startswith(b"HTTP/1.1 200")
        held.append(sock)
    with socket.create_connection(("127.0.0.1", one_worker), timeout=15) as last:
        assert _answer(last).startswith(b"HTTP/1.1 200")
    took = time.monotonic() - started
    # gunicorn's own close lingers up to 2 s on each open socket: 10 s for the five.
    assert took < 5, f"six answers took {took:.1f} s: the worker waited for clients to close"
    for sock in held:
        assert sock.recv(10) == b""  # each was told the answer ended (the half-close)
        sock.close()
