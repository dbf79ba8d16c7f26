"""The embedded default stays honest: a fresh SQLite file migrates and serves pages."""

import subprocess
import sys

from tests.conftest import REPO, free_port, manage, stop, subprocess_env, wait_for_http


def test_fresh_sqlite_migrates_and_serves_the_home_page(tmp_path):
    env = subprocess_env(DEBUG="true", DATABASE_URL=f"sqlite:///{tmp_path / 'fresh.sqlite3'}")
    env.pop("CELERY_BROKER_URL", None)
    migrated = manage("migrate", "--noinput", env=env)
    assert migrated.returncode == 0, migrated.stderr
    seeded = manage("seed_demo", env=env)
    assert "user name 'director'" in seeded.stdout, seeded.stderr
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        home = wait_for_http(f"http://127.0.0.1:{port}/", proc=proc)
        assert home.status == 200
        assert "Pegboard" in home.read().decode()
        schema = wait_for_http(f"http://127.0.0.1:{port}/api/schema/", proc=proc)
        assert schema.status == 200
    finally:
        stop(proc)
