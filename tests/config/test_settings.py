"""Settings come from the environment and fail loudly on bad values."""

import secrets
import subprocess
import sys

import pytest

from tests.conftest import REPO, manage, subprocess_env

PRODUCTION = {
    "DEBUG": "false",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "pegboard.example.org",
    "DATABASE_URL": "postgres://pegboard@db.example.org:5432/pegboard",
    "CELERY_BROKER_URL": "redis://redis.example.org:6379/0",
}


def _load_settings(env):
    import subprocess

    code = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG)"
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=subprocess_env(DJANGO_SETTINGS_MODULE="config.settings", **env),
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_check_deploy_reports_nothing_with_production_values():
    result = manage(
        "check", "--deploy", "--fail-level", "WARNING", env=subprocess_env(**PRODUCTION)
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "WARNING" not in result.stderr + result.stdout
    assert "no issues" in result.stdout


def test_secret_key_is_required_when_debug_is_off():
    env = {k: v for k, v in PRODUCTION.items() if k != "SECRET_KEY"}
    result = _load_settings(env)
    assert result.returncode != 0
    assert "SECRET_KEY is required when DEBUG is off" in result.stderr


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("DEBUG", "maybe", "DEBUG='maybe' is not a boolean"),
        ("SECURE_HSTS_SECONDS", "a month", "SECURE_HSTS_SECONDS='a month' is not a whole number"),
        ("DATABASE_URL", "mysterydb://x", "DATABASE_URL is not a usable database URL"),
    ],
)
def test_bad_values_fail_loudly_naming_the_variable(name, value, message):
    result = _load_settings({**PRODUCTION, name: value})
    assert result.returncode != 0
    assert message in result.stderr


def test_embedded_default_is_sqlite_with_eager_tasks():
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER)"
    )
    import subprocess

    env = subprocess_env(DEBUG="true", DJANGO_SETTINGS_MODULE="config.settings")
    env.pop("CELERY_BROKER_URL", None)
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, timeout=60
    )
    assert out.stdout.split() == ["django.db.backends.sqlite3", "True"], out.stderr


def _site_url(env) -> str:
    code = (
        "import django; django.setup(); from django.conf import settings; print(settings.SITE_URL)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=subprocess_env(DJANGO_SETTINGS_MODULE="config.settings", **env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_the_e_mails_links_name_the_site_not_localhost():
    """Issue 22: with SITE_URL unset, every e-mail's link said http://localhost:8000."""
    assert _site_url(PRODUCTION) == "https://pegboard.example.org"
    hosts = {**PRODUCTION, "ALLOWED_HOSTS": "localhost,.cribbage.example.org,other.example.org"}
    assert _site_url(hosts) == "https://cribbage.example.org"
    assert _site_url({**PRODUCTION, "SITE_URL": "https://pegs.example.org/"}) == (
        "https://pegs.example.org"
    )
    assert _site_url({**PRODUCTION, "ALLOWED_HOSTS": "localhost"}) == "http://localhost:8000"
