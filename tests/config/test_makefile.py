"""``make run`` serves on the port asked for (issue 22: it could only serve on 8000)."""

import os
import shutil
import subprocess

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def _run_commands(*args: str, env: dict | None = None) -> str:
    """What ``make run`` would do, without doing it (``make -n``)."""
    done = subprocess.run(
        ["make", "-n", *args, "run"], cwd=REPO, capture_output=True, text=True, env=env, check=True
    )
    return done.stdout


def test_the_port_defaults_to_8000_and_can_be_chosen():
    base = {"PATH": os.environ["PATH"]}
    assert "runserver 127.0.0.1:8000" in _run_commands(env=base)
    chosen = _run_commands(env={**base, "PORT": "8300"})
    assert "runserver 127.0.0.1:8300" in chosen
    assert "SITE_URL:-http://127.0.0.1:8300" in chosen  # the e-mails' links follow the port
    assert "runserver 127.0.0.1:8301" in _run_commands("PORT=8301", env=base)


def test_venue_mode_is_one_command_on_the_port_asked_for():
    base = {"PATH": os.environ["PATH"]}
    venue = subprocess.run(
        ["make", "-n", "venue"], cwd=REPO, capture_output=True, text=True, env=base, check=True
    ).stdout
    assert "-m config.venue --port 8000" in venue
    chosen = subprocess.run(
        ["make", "-n", "venue", "PORT=8080"], cwd=REPO, capture_output=True, text=True, env=base
    ).stdout
    assert "--port 8080" in chosen
