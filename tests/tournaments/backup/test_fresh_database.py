"""Restoring into an empty database: a new PostgreSQL database, migrated by ``manage.py``,
receives the backup through ``import_event`` and gives the same backup back through
``export_event``. Runs on PostgreSQL only (CI=true); the database is dropped at the end."""

import json
import uuid

import psycopg
import pytest
from django.db import connection

from tests.conftest import database_url_of_test_db, manage, subprocess_env
from tests.tournaments.backup.conftest import comparable
from tournaments.services.backup_export import event_export


def _admin(sql: str) -> None:
    """Run ``sql`` on the server's maintenance database (CREATE/DROP DATABASE)."""
    s = connection.settings_dict
    with psycopg.connect(
        host=s["HOST"] or "127.0.0.1",
        port=s["PORT"] or 5432,
        user=s["USER"],
        password=s["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    ) as admin:
        admin.execute(sql)


def _run(*args: str, env: dict[str, str]) -> str:
    done = manage(*args, env=env)
    assert done.returncode == 0, f"manage.py {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.mark.services
@pytest.mark.django_db
def test_a_backup_restores_into_a_fresh_database(rich_event, tmp_path):
    assert connection.vendor == "postgresql", "this test needs PostgreSQL: run it with CI=true"
    first = event_export(event=rich_event(), include_tokens=True)
    backup, again = tmp_path / "event.json", tmp_path / "again.json"
    backup.write_text(json.dumps(first))
    name = f"pegboard_restore_{uuid.uuid4().hex[:12]}"
    env = subprocess_env(
        DEBUG="true", DATABASE_URL=database_url_of_test_db().rsplit("/", 1)[0] + f"/{name}"
    )
    _admin(f'CREATE DATABASE "{name}"')
    try:
        _run("migrate", "--noinput", env=env)
        _run("createsuperuser", "--noinput", "--username", "restorer",
             "--email", "restorer@example.org", env=env)  # fmt: skip
        event_id = _run("import_event", str(backup), "--user", "restorer", env=env).strip()
        _run("export_event", event_id, "--tokens", "--output", str(again), env=env)
    finally:
        _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    second = json.loads(again.read_text())
    assert comparable(second, importer="restorer") == comparable(first)
    # The import asked for the ratings job, which left it out: not sanctioned there (a file is
    # not the ACC office's decision), so not rated there (services.ratings).
    assert second["event"]["rated_at"] is None
