"""Shared test setup: which services the run must use, and helpers for subprocess servers.

Locally ``make test`` runs on SQLite and skips the tests marked ``services`` with a reason.
With CI=true or PEGBOARD_TEST_DATABASE_URL set, the suite runs on PostgreSQL and the service
tests must run: a missing service makes them fail, never skip.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.test.utils import override_settings
from hypothesis import settings as hypothesis_settings

# No time limit on a generated example (Hypothesis's default is 200 ms): speed is the benches'
# business, and on a loaded 2-core machine a standings example once took 283 ms and failed a
# run whose answers were all right.
hypothesis_settings.register_profile("pegboard", deadline=None)
hypothesis_settings.load_profile("pegboard")

REPO = Path(__file__).resolve().parent.parent
IN_CI = os.environ.get("CI", "").lower() == "true"
SERVICES_REQUIRED = IN_CI or bool(os.environ.get("PEGBOARD_TEST_DATABASE_URL"))
REDIS_URL = os.environ.get("PEGBOARD_TEST_REDIS_URL", "redis://127.0.0.1:6379/15")

# Fixtures that tests of several folders use (events played through the services).
pytest_plugins = ["tests.fixtures"]


@pytest.fixture(scope="session", autouse=True)
def fast_password_hashing():
    """Tests make thousands of accounts: MD5 instead of production's PBKDF2, for the whole run
    (module-scoped fixtures included)."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(scope="session", autouse=True)
def one_request_at_a_time_on_sqlite():
    """On SQLite (``make test``) the test database lives in memory, and the live server's
    threads share the test's one connection: two requests at once (a phone's queue sending
    a report while its page sends it too) interleave their transactions on it, and one's
    error breaks the other's and every later test's. The server then answers one request at
    a time, as venue mode's single worker does on SQLite; on PostgreSQL each thread has its
    own connection and requests run side by side, as in production."""
    from django.core.servers.basehttp import WSGIServer
    from django.db import connection
    from django.test.testcases import LiveServerThread

    class OneAtATime(WSGIServer):
        """Django's server without threads (it answers ``Connection: close``, so a browser's
        kept-alive connection never holds it); the live server's own thread already uses the
        test's connection (``LiveServerThread.run``)."""

        def __init__(self, *args, connections_override=None, **kwargs):
            super().__init__(*args, **kwargs)

    if connection.vendor != "sqlite":
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(LiveServerThread, "server_class", OneAtATime)
        yield


def pytest_collection_modifyitems(config, items):
    if SERVICES_REQUIRED:
        return
    skip = pytest.mark.skip(
        reason="needs PostgreSQL, Redis and a Celery worker: run with CI=true "
        "or PEGBOARD_TEST_DATABASE_URL=postgres://... to include it"
    )
    for item in items:
        if "services" in item.keywords:
            item.add_marker(skip)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def subprocess_env(**overrides: str) -> dict[str, str]:
    """The environment for a server or worker the test starts: no pytest database switch."""
    test_only = {
        "PYTEST_VERSION",
        "DATABASE_URL",
        "PEGBOARD_TEST_DATABASE_URL",
        "DJANGO_ALLOW_ASYNC_UNSAFE",
    }
    env = {k: v for k, v in os.environ.items() if k not in test_only}
    env.update(overrides)
    return env


def database_url_of_test_db() -> str:
    """A URL for the database this test run uses, for processes the test starts."""
    from django.db import connection

    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        raise RuntimeError("subprocesses cannot share the in-memory SQLite test database")
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


_opener = urllib.request.build_opener(_NoRedirect)


def wait_for_http(url: str, *, proc: subprocess.Popen, timeout: float = 30.0, headers=None):
    """Poll ``url`` until it answers (any status, no redirects); fail if the server died."""
    deadline = time.monotonic() + timeout
    request = urllib.request.Request(url, headers=headers or {})
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            out = proc.stdout.read() if proc.stdout else ""
            raise AssertionError(f"server exited with {proc.returncode}:\n{out}")
        try:
            return _opener.open(request, timeout=5)
        except urllib.error.HTTPError as exc:
            return exc
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"{url} did not answer within {timeout} s")


def stop(proc: subprocess.Popen) -> str:
    proc.terminate()
    try:
        out, _ = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    return out or ""


def manage(*args: str, env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture
def event_in_play(django_capture_on_commit_callbacks):
    """Make an event of ``players`` checked-in players with game 1 paired and published,
    built through the services as a director would; ``event.director`` is its director.
    ``prepare(event)``, if given, runs once the players have entered, before play starts."""
    from tests.factories import EntryFactory, EventFactory, UserFactory
    from tournaments.models import Game
    from tournaments.services.events import event_close_registration
    from tournaments.services.pairings import game_pairings_request, game_publish

    def make(players: int = 10, prepare=None, **settings):
        director = UserFactory()
        event = EventFactory(director=director, **settings)
        for _ in range(players):
            EntryFactory(event=event)
        if prepare is not None:
            prepare(event)
            event.refresh_from_db()
        event_close_registration(event=event, user=director)
        with django_capture_on_commit_callbacks(execute=True):
            game_pairings_request(event=event, number=1, user=director)
        game = Game.objects.get(event=event, number=1)
        with django_capture_on_commit_callbacks(execute=True):
            game_publish(game=game, user=director)
        event.director = director
        return event

    return make


@pytest.fixture(autouse=True)
def _throttle_counts_cleared():
    """Every test starts with nothing counted against its client address (the test client's
    127.0.0.1): the limits (tournaments.throttles) count in the local-memory "throttle" cache,
    which outlives a test."""
    from django.core.cache import caches

    from tournaments.heard import heard_forget_memo
    from tournaments.services.standings import standings_forget_memo

    caches["throttle"].clear()
    heard_forget_memo()  # the memo of when each phone was last heard (no write in flight after)
    caches["heard"].clear()  # and the times written (tournaments.heard)
    # Seen without it: a joined job taken before the commit was not asked for again.
    standings_forget_memo()
    # Public pages rendered for every worker (tournaments.views.live): ids and versions come
    # again in the next test's database, with other names in them.
    from tournaments.views.live import rendered_forget

    caches["rendered"].clear()
    rendered_forget()
