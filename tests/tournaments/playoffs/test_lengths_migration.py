"""Migration 0015: every event keeps the playoff lengths its director chose, read by name.

The old list counted rounds from round 1; it is read for the bracket it meant (the bracket
built, else the one the field makes, else the list's own length)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tournaments", "0014_crosscheck_judges_check_in")]
AFTER = [("tournaments", "0015_playoff_lengths_by_name")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _latest():
    """Every later migration back, as the rest of the tests expect the schema."""
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_every_event_keeps_its_lengths_by_name():
    apps = _migrate(BEFORE)
    try:
        _fill_and_check(apps)
    finally:
        _latest()


def _fill_and_check(apps):
    Event = apps.get_model("tournaments", "Event")
    Entry = apps.get_model("tournaments", "Entry")
    Player = apps.get_model("tournaments", "Player")
    Playoff = apps.get_model("tournaments", "Playoff")
    Match = apps.get_model("tournaments", "Match")

    def event(per_round, players=0, **fields):
        made = Event.objects.create(name=f"E{per_round}", playoff_best_of=per_round, **fields)
        for n in range(players):
            player = Player.objects.create(name=f"{made.pk}-{n}", acc_number=f"M{made.pk}-{n}")
            Entry.objects.create(event=made, player=player)
        return made.pk

    laid_out_for_17 = event([5, 5, 7], players=17)  # 5 qualify: semis round 2, final round 3
    no_field = event([3, 3, 3, 5, 7])  # laid out for 5 rounds when it was chosen
    one = event([3], players=8)
    unset = event([])
    built = event([3, 7, 9], stage="playoffs")  # a bracket of 2 rounds was built
    playoff = Playoff.objects.create(event_id=built, entrants=10, qualifiers=3)
    for round_, slot in ((1, 0), (1, 1), (2, 0)):
        Match.objects.create(playoff=playoff, round=round_, slot=slot, best_of=3, seed_a=1)

    apps = _migrate(AFTER)
    Event = apps.get_model("tournaments", "Event")
    lengths = dict(Event.objects.values_list("pk", "playoff_best_of"))
    assert lengths[laid_out_for_17] == {"every": 5, "semi": None, "final": 7}
    assert lengths[no_field] == {"every": 3, "semi": 5, "final": 7}
    assert lengths[one] == {"every": 3, "semi": None, "final": None}
    assert lengths[unset] == {"every": 5, "semi": None, "final": None}
    assert lengths[built] == {"every": 3, "semi": None, "final": 7}

    Event = _migrate(BEFORE).get_model("tournaments", "Event")  # and back: a by-round list
    assert Event.objects.get(pk=laid_out_for_17).playoff_best_of == [5, 7]
