"""Helpers shared by tests of several folders (import them from here, not from another
folder's conftest)."""

from __future__ import annotations

import psycopg
from django.db import connection, connections

from tests.factories import UserFactory

# What an administrator (or a failover script) runs: every other session on the database ends.
TERMINATE_ALL = (
    "SELECT count(*) FILTER (WHERE pg_terminate_backend(pid)) FROM pg_stat_activity "
    "WHERE datname = current_database() AND pid <> pg_backend_pid() "
    "AND backend_type = 'client backend'"
)


def postgres_connect() -> psycopg.Connection:
    """A session of its own on the test database (not Django's), in autocommit."""
    s = connection.settings_dict
    return psycopg.connect(
        dbname=s["NAME"],
        user=s["USER"],
        password=s["PASSWORD"] or None,
        host=s["HOST"] or "127.0.0.1",
        port=s["PORT"] or 5432,
        autocommit=True,
    )


def connection_terminate() -> None:
    """End this thread's Django connection from the server's side, as ``pg_terminate_backend``
    does; returns once the session is gone. Django is not told: its next query finds out."""
    pid = connection.connection.info.backend_pid
    with postgres_connect() as admin:
        (ended,) = admin.execute("SELECT pg_terminate_backend(%s, 5000)", [pid]).fetchone()
    assert ended, f"backend {pid} did not end"


def commit_answer_lost(monkeypatch, *, saved: bool) -> None:
    """The next COMMIT of this thread's connection loses its answer with the connection: the
    server ended the session after committing (``saved``) or before."""
    wrapper = connections["default"]
    real = wrapper._commit

    def commit():
        monkeypatch.setattr(wrapper, "_commit", real)  # only this one
        if not saved:
            connection_terminate()
            return real()
        real()
        connection_terminate()
        with wrapper.wrap_database_errors:  # the answer was lost: Django sees the error
            wrapper.connection.execute("SELECT 1")
        raise AssertionError("the session was not ended")

    monkeypatch.setattr(wrapper, "_commit", commit)


def sanction(event):
    """The ACC office sanctions ``event``, as in production (``services.sanctioning``)."""
    from tournaments.services.sanctioning import event_sanction_grant

    event_sanction_grant(event=event, user=UserFactory(is_staff=True))
    event.refresh_from_db()
    return event


def link_account(player, user):
    """``user`` is ``player``'s confirmed account, as an administrator's confirmation leaves it
    (``services.account_links``: ``Player.user`` and its confirmed ``AccountLink``)."""
    from tournaments.models import AccountLink, Player

    Player.objects.filter(pk=player.pk).update(user=user)
    player.user = user
    AccountLink.objects.create(player=player, user=user, status="confirmed", method="administrator")
    return player
