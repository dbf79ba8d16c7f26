"""E-mail holds private links: with DEBUG off it goes by SMTP, and a backend that would write it
into a log or a file stops the start; development keeps the console."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.config.test_settings import PRODUCTION, _load_settings
from tests.conftest import REPO, subprocess_env


def _email_backend(env: dict[str, str]) -> str:
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.EMAIL_BACKEND)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=REPO,
        env=subprocess_env(DJANGO_SETTINGS_MODULE="config.settings", **env),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _without_email_backend(env: dict[str, str]) -> dict[str, str]:
    return {**env, "EMAIL_BACKEND": ""}  # as if unset, whatever this machine's environment says


def test_production_sends_by_smtp_by_default():
    backend = _email_backend(_without_email_backend(PRODUCTION))
    assert backend == "django.core.mail.backends.smtp.EmailBackend"


def test_development_prints_e_mails_on_the_console():
    backend = _email_backend(_without_email_backend({"DEBUG": "true"}))
    assert backend == "django.core.mail.backends.console.EmailBackend"


@pytest.mark.parametrize("kind", ["console", "filebased"])
def test_production_refuses_a_backend_that_writes_e_mails_down(kind):
    backend = f"django.core.mail.backends.{kind}.EmailBackend"
    result = _load_settings({**PRODUCTION, "EMAIL_BACKEND": backend})
    assert result.returncode != 0
    assert f"EMAIL_BACKEND={backend} writes every e-mail" in result.stderr
    assert "set EMAIL_HOST and EMAIL_PORT to your mail server" in result.stderr


def test_production_takes_another_real_backend():
    smtp = "django.core.mail.backends.smtp.EmailBackend"
    assert _email_backend({**PRODUCTION, "EMAIL_BACKEND": smtp}) == smtp
