"""A gunicorn worker is made ready before its first request (``config.warm``): the URLs imported,
the project's templates compiled, the hottest queries' SQL built, the database connection open;
and a worker that cannot do a step still starts."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.template import engines

from config.warm import template_names, worker_warm
from tournaments.selectors.compiled import Compiled

ROOT = Path(__file__).resolve().parents[2]


def _cached_names() -> set[str]:
    loader = engines["django"].engine.template_loaders[0]
    return {key.split("-")[0] for key in loader.get_template_cache}


@pytest.mark.django_db
def test_each_step_is_done_before_a_request():
    engines["django"].engine.template_loaders[0].reset()
    Compiled._plan_for.cache_clear()  # one cache for every compiled query: (query, vendor)

    took = worker_warm()

    assert set(took) == {"urls", "templates", "static", "database", "queries"}
    names = template_names()
    assert "tournaments/player/_live.html" in names
    assert set(names) <= _cached_names()
    hot = [c for c in Compiled.made if c.__name__ in ("_entry_row", "<lambda>")]
    assert hot, "the poll's and the page's compiled queries are registered"
    assert Compiled._plan_for.cache_info().currsize == len(Compiled.made)  # each one built


WITHOUT_DATABASE = """
import logging, os, sys
logging.basicConfig(level=logging.WARNING, stream=sys.stdout)
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
import django
django.setup()
from config.warm import worker_warm
took = worker_warm()
print("steps", sorted(took))
"""


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]  # nothing listens there once the socket is closed


def test_a_worker_that_cannot_reach_the_database_still_starts():
    env = {
        **os.environ,
        "DEBUG": "true",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{_closed_port()}/none",
    }
    env.pop("PYTEST_VERSION", None)  # the settings read DATABASE_URL, as in production
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_DATABASE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "steps ['database', 'queries', 'static', 'templates', 'urls']" in done.stdout
    logged = done.stdout + done.stderr
    assert "worker warm-up: database skipped" in logged
    assert "connection failed" in logged or "Connection refused" in logged


FROZEN = "objects out of the garbage collector's full walks"


def test_gunicorn_workers_warm_up_with_the_products_settings(tmp_path):
    port = _closed_port()
    env = {
        **os.environ,
        "DEBUG": "true",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    env.pop("PYTEST_VERSION", None)
    migrate = [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"]
    subprocess.run(migrate, cwd=ROOT, env=env, check=True, timeout=300)
    command = [
        sys.executable, "-m", "gunicorn", "--config", str(ROOT / "gunicorn.conf.py"),
        "--workers", "2", "--bind", f"127.0.0.1:{port}", "config.wsgi:application",
    ]  # fmt: skip
    log = tmp_path / "gunicorn.log"
    with open(log, "wb") as out:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline and log.read_text().count(FROZEN) < 2:
                time.sleep(0.2)
        finally:
            server.terminate()
            server.wait(timeout=20)
    text = log.read_text()
    assert text.count("worker warm-up: urls") == 2, text[-3000:]  # one line each worker
    # then what the warm-up made is out of the garbage collector's full walks
    frozen = [int(line.split(FROZEN)[0].rsplit(" ", 2)[-2]) for line in text.splitlines()
              if FROZEN in line]  # fmt: skip
    assert len(frozen) == 2 and min(frozen) > 50_000, text[-3000:]
    assert "skipped" not in text, text[-3000:]
