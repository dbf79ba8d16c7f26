"""A gunicorn worker is made ready before its first request (``config.warm``): the URLs imported,
the project's templates compiled, the hottest queries' SQL built, the database connection open,
the shared caches connected, what a page's first rendering makes once made; and a worker that
cannot do a step still starts."""

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

    assert set(took) == {
        "urls", "templates", "static", "database", "queries", "caches", "first_use",
    }  # fmt: skip
    names = template_names()
    assert "tournaments/player/_live.html" in names
    assert set(names) <= _cached_names()
    hot = [c for c in Compiled.made if c.__name__ in ("_entry_row", "<lambda>")]
    assert hot, "the poll's and the page's compiled queries are registered"
    assert Compiled._plan_for.cache_info().currsize == len(Compiled.made)  # each one built


@pytest.mark.django_db
def test_what_a_first_page_makes_once_is_made_before_it(client):
    from unittest import mock

    from django.urls import get_resolver

    from tournaments import context_processors
    from tournaments.views import report, report_offline

    context_processors._menus.clear()
    report._fields.clear()
    report_offline._scripts.clear()
    engine = engines["django"].engine
    engine.__dict__.pop("template_context_processors", None)
    _prefix, admin = get_resolver().namespace_dict["admin"]
    admin._reverse_dict.clear()  # the admin's own table: every page's menu names admin:index

    worker_warm()

    assert report._fields and report_offline._scripts
    assert "template_context_processors" in engine.__dict__  # imported, kept by the engine
    assert admin._reverse_dict
    # A request finds the menu the warm-up worked out (under the request's own key).
    with mock.patch("tournaments.context_processors.reverse") as worked_out:
        assert client.get("/").status_code == 200
    worked_out.assert_not_called()


def _redis_caches(url: str) -> dict:
    shared = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": url,
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
    return {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
            "throttle": shared, "heard": shared}  # fmt: skip


@pytest.mark.services
def test_the_shared_caches_are_connected_before_a_request(settings):
    from django.core.cache import caches

    from tests.conftest import REDIS_URL

    settings.CACHES = _redis_caches(REDIS_URL)
    worker_warm()
    for alias in ("throttle", "heard"):
        pools = caches[alias]._cache._pools  # the client made, its pool holding a connection
        assert pools and all(pool._created_connections for pool in pools.values()), alias


def test_a_worker_whose_redis_is_down_still_starts(settings, caplog):
    settings.CACHES = _redis_caches(f"redis://127.0.0.1:{_closed_port()}/1")
    worker_warm()
    assert "worker warm-up: caches skipped" in caplog.text
    assert "first_use skipped" not in caplog.text  # the steps after it are done


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
    steps = "['caches', 'database', 'first_use', 'queries', 'static', 'templates', 'urls']"
    assert f"steps {steps}" in done.stdout
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
