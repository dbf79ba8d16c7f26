"""Django's PostgreSQL backend, with a connection check that costs no round trip when the
server has said nothing.

Connections are kept open between requests (``CONN_MAX_AGE``), and one the server ended
meanwhile must be replaced before a request's first query, not found out by it
(``CONN_HEALTH_CHECKS``). Django checks by sending ``SELECT 1`` at every request's first
query: one more round trip for every poll and report, which on a busy 2-core server is a wait
for the database process to be scheduled (py-spy on the load bench's workers: 15 % of their
time while a thousand phones opened their pages).

A server that ends a session (``pg_terminate_backend``, a restart, ``idle_session_timeout``)
first sends it a FATAL message and closes the socket; between requests nothing else arrives
unasked but the odd notice. So the socket is looked at first, without waiting: nothing to read
means the session is as the last request left it, and the connection is used; anything to
read (the server's goodbye, its close, or a notice) and Django's own ``SELECT 1`` decides. A
connection lost with no word at all (a cable pulled) fails ``SELECT 1`` as it fails the first
query; so does a session the server is ending at the very moment of the check (its goodbye
not yet sent): the request's reads are then read again, and its write run again, on a new
connection (``services.conflicts``), as for a connection lost in the middle of a request.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        if self.connection is None or self.connection.closed:
            return False
        try:
            pgconn = self.connection.pgconn
            if pgconn.status != pq.ConnStatus.OK:
                return False
            unasked, _, _ = select.select([pgconn.socket], [], [], 0)
        except (OSError, ValueError, self.Database.Error):
            return False
        if not unasked:
            return True
        return super().is_usable()  # the server sent something unasked: ask it plainly
