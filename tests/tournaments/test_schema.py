"""The database holds every constraint and index the models declare (issue 24's review):
migration 0023 took the card line's seat index away with Django's ``AlterField(db_index=False)``,
which drops every single-column btree index on that column, and so also dropped the two unique
indexes that keep one current report and one current verified line per seat. Django's own
migration state still listed them, so no ``makemigrations`` check could tell."""

import re

import pytest
from django.apps import apps
from django.db import connection

pytestmark = pytest.mark.django_db


def _declared():
    for model in apps.get_app_config("tournaments").get_models():
        meta = model._meta
        if not meta.managed or meta.proxy:
            continue
        for item in [*meta.constraints, *meta.indexes]:
            yield meta.db_table, item.name


def _names(cursor, table: str) -> set[str]:
    if connection.vendor != "sqlite":
        return set(connection.introspection.get_constraints(cursor, table))
    # Django's SQLite introspection fails on some of these tables' SQL: read it directly.
    cursor.execute("SELECT type, name, sql FROM sqlite_master WHERE tbl_name = %s", [table])
    names = set()
    for kind, name, sql in cursor.fetchall():
        if kind == "index":
            names.add(name)
        elif kind == "table":
            names.update(re.findall(r'CONSTRAINT "([^"]+)"', sql))
    return names


def test_every_declared_constraint_and_index_is_in_the_database():
    missing = []
    with connection.cursor() as cursor:
        found = {}
        for table, name in _declared():
            if table not in found:
                found[table] = _names(cursor, table)
            if name not in found[table]:
                missing.append(f"{table}.{name}")
    where = f"the {connection.vendor} database"
    assert not missing, f"declared by the models, not in {where}: {missing}"
