"""How gunicorn's workers close a connection after the response (installed by ``gunicorn.conf.py``).

gunicorn 27 closes each connection "gracefully" (``gunicorn.util.close_graceful``): it half-closes
its side, then waits, up to 2 s, for the client to close its own before it takes the next
request. A sync worker does nothing else meanwhile. Behind a proxy that is the proxy's prompt
close; in venue mode (``config.venue``: one worker, phones on the venue's Wi-Fi, no proxy) it
is a phone's round trip on a weak network, or the whole 2 s for a phone that walked out of
range: every other phone waits behind it. Measured under the load bench (``bench/load.py``,
py-spy on a worker), a quarter of each worker's time went to this wait.

``close_promptly`` keeps what the graceful close is for: the half-close (the client sees the
end of the response at once) and reading what the client already sent, so unread request data
never makes the kernel answer with a reset that cuts the response short. It only does not wait
for more.
"""

from __future__ import annotations

import contextlib
import socket


def close_promptly(sock, timeout: float = 2.0, max_drain: int = 65536) -> None:
    """``gunicorn.util.close_graceful`` without the wait (same arguments, ``timeout`` unused)."""
    try:
        try:
            sock.shutdown(socket.SHUT_WR)
        except OSError:
            return
        sock.setblocking(False)
        drained = 0
        while drained < max_drain:
            try:
                data = sock.recv(4096)
            except OSError:  # nothing more has arrived (or the client reset): done
                break
            if not data:
                break
            drained += len(data)
    finally:
        with contextlib.suppress(OSError):
            sock.close()


def install() -> None:
    """Every worker closes with ``close_promptly`` (the workers look the function up in
    ``gunicorn.util`` at each close; the master installs it before they start)."""
    import gunicorn.util

    gunicorn.util.close_graceful = close_promptly
