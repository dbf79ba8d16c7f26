"""The production stack: compose.yaml agrees with the settings, and gunicorn serves pages.

There is no Docker engine on these machines, so the compose file is checked as data and the
production command is started directly against PostgreSQL.
"""

import re
import secrets
import subprocess
import sys

import pytest
import yaml

from config.env import ENVIRONMENT_VARIABLES
from tests.conftest import (
    REPO,
    database_url_of_test_db,
    free_port,
    manage,
    stop,
    subprocess_env,
    wait_for_http,
)

COMPOSE = yaml.safe_load((REPO / "docker" / "compose.yaml").read_text())
APP_SERVICES = ("web", "worker", "beat")


def test_compose_has_the_production_services_with_health_checks_and_volumes():
    services = COMPOSE["services"]
    assert set(services) == {"web", "worker", "beat", "db", "redis"}
    for name in ("web", "worker", "db", "redis"):
        assert "healthcheck" in services[name], f"{name} has no health check"
    assert "pgdata:/var/lib/postgresql/data" in services["db"]["volumes"]
    assert set(COMPOSE["volumes"]) == {"pgdata", "redisdata"}


def test_compose_commands_start_gunicorn_worker_and_beat():
    services = COMPOSE["services"]
    assert "gunicorn config.wsgi:application" in services["web"]["command"]
    assert "migrate --noinput" in services["web"]["command"]
    assert services["worker"]["command"].startswith("celery -A config worker")
    assert services["beat"]["command"].startswith("celery -A config beat")


def test_compose_environment_uses_only_variables_the_settings_read():
    for name in APP_SERVICES:
        env = COMPOSE["services"][name]["environment"]
        unknown = set(env) - set(ENVIRONMENT_VARIABLES)
        assert not unknown, f"{name} sets variables the settings never read: {unknown}"
        assert env["DEBUG"] == "false"
        assert env["DATABASE_URL"].startswith("postgres://") and "@db:5432/" in env["DATABASE_URL"]
        assert env["CELERY_BROKER_URL"].startswith("redis://redis:6379")
        assert "SECRET_KEY" in env and "ALLOWED_HOSTS" in env
        assert COMPOSE["services"][name]["depends_on"]["db"]["condition"] == "service_healthy"


def test_dockerfile_is_slim_non_root_and_collects_static():
    text = (REPO / "docker" / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim", text, re.M)
    assert re.search(r"^USER (?!root)\w+", text, re.M)
    assert "collectstatic --noinput" in text
    assert "gunicorn" in text


def test_the_image_runs_gunicorn_with_the_projects_settings_file():
    """gunicorn.conf.py holds the measured worker model and the log redaction: the image must
    carry it, and no command line may override what it sets."""
    dockerfile = (REPO / "docker" / "Dockerfile").read_text()
    assert re.search(r"^COPY .*\bgunicorn\.conf\.py\b", dockerfile, re.M)
    compose = (REPO / "docker" / "compose.yaml").read_text()
    for text in (dockerfile, compose):
        assert (
            "--workers" not in text and "--threads" not in text and "--access-logfile" not in text
        )


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_gunicorn_with_production_settings_serves_pages_from_postgresql(tmp_path):
    env = subprocess_env(
        DEBUG="false",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="127.0.0.1",
        DATABASE_URL=database_url_of_test_db(),
        STATIC_ROOT=str(tmp_path / "static"),
    )
    collected = manage("collectstatic", "--noinput", env=env)
    assert collected.returncode == 0, collected.stderr
    port = free_port()
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
        ],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        https = {"X-Forwarded-Proto": "https"}
        page = wait_for_http(f"http://127.0.0.1:{port}/", proc=proc, headers=https)
        html = page.read().decode()
        assert page.status == 200 and "Pegboard" in html
        css = re.search(r'href="(/static/css/pegboard\.[0-9a-f]+\.css)"', html)
        assert css, "the page should link the hashed stylesheet from the manifest"
        stylesheet = f"http://127.0.0.1:{port}{css.group(1)}"
        assert wait_for_http(stylesheet, proc=proc, headers=https).status == 200
        health = wait_for_http(f"http://127.0.0.1:{port}/api/v1/health/", proc=proc, headers=https)
        assert b'"postgresql"' in health.read()
        plain = wait_for_http(f"http://127.0.0.1:{port}/", proc=proc)
        assert plain.status == 301 and plain.headers["Location"].startswith("https://")
    finally:
        stop(proc)
