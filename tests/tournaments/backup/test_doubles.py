"""A doubles event's backup: its teams (each naming its partners' entries) and its four-seat
tables come back row for row; a backup made before teams existed is still read."""

import json

import pytest

from tests.factories import UserFactory
from tests.tournaments.backup.conftest import comparable, delete_event
from tournaments.errors import ServiceError
from tournaments.models import Event, Seat, Team
from tournaments.services.backup_export import event_export
from tournaments.services.backup_import import event_import
from tournaments.services.simulation import event_simulate

pytestmark = pytest.mark.django_db(transaction=True)  # the simulation's jobs run on commit


def test_a_doubles_event_comes_back_with_its_teams():
    director = UserFactory(username="sim-director")
    report = event_simulate(
        players=14, games=3, seed=5, director=director, name="Doubles trip", style="doubles",
        stop_after_game=2,
    )  # fmt: skip
    event = report.event
    first = json.loads(json.dumps(event_export(event=event)))
    assert len(first["teams"]) == 7 and all(len(t["members"]) == 2 for t in first["teams"])
    assert {s["position"] for g in first["games"] for s in g["seats"]} == {1, 2, 3, 4}
    partners = {frozenset(t["members"]) for t in first["teams"]}
    delete_event(event, first)
    restored = event_import(data=first, user=UserFactory(username="archivist"))
    second = event_export(event=restored)
    assert comparable(second, importer="archivist") == comparable(first)
    assert restored.style == "doubles" and Team.objects.filter(event=restored).count() == 7
    assert {frozenset(t["members"]) for t in second["teams"]} == partners
    assert Seat.objects.filter(game__event=restored, position=4).exists()


def test_a_backup_without_teams_is_read_as_one_with_none(rich_event):
    event = rich_event()
    doc = json.loads(json.dumps(event_export(event=event)))
    assert doc.pop("teams") == []
    delete_event(event, doc)
    restored = event_import(data=doc, user=UserFactory(username="archivist"))
    assert isinstance(restored, Event) and not Team.objects.exists()


def test_a_team_naming_an_unknown_entry_is_refused():
    director = UserFactory(username="sim-director")
    event = event_simulate(
        players=8, games=1, seed=3, director=director, name="Doubles bad", style="doubles",
        stop_after_game=0,
    ).event  # fmt: skip
    doc = json.loads(json.dumps(event_export(event=event)))
    doc["teams"][0]["members"] = ["E1", "E999"]
    delete_event(event, doc)
    with pytest.raises(ServiceError) as refused:
        event_import(data=doc, user=UserFactory(username="archivist"))
    assert refused.value.field == "teams[0].members"
    assert not Event.objects.filter(name="Doubles bad").exists()
