"""Migration 0022: the clubs on Pegboard when recognition began keep what they had (their
nights count in the ratings and the national table): they are marked recognised. A club
made afterwards starts unrecognised. The migration goes back too (the fields go)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0021_registration_keep_apart")]
AFTER = [("tournaments", "0022_club_recognition")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _latest():
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_existing_clubs_are_recognised_and_new_ones_are_not():
    Club = _migrate(BEFORE).get_model("tournaments", "Club")
    try:
        old = Club.objects.create(name="Old Pegs").pk
        Club = _migrate(AFTER).get_model("tournaments", "Club")
        kept = Club.objects.get(pk=old)
        assert kept.recognised and kept.recognition_decision == "granted"
        assert kept.recognised_at is not None and "was on Pegboard already" in kept.recognition_note
        assert Club.objects.create(name="New Pegs").recognised is False
        Club = _migrate(BEFORE).get_model("tournaments", "Club")  # and back
        assert Club.objects.filter(name__in=["Old Pegs", "New Pegs"]).count() == 2
    finally:
        _latest()
