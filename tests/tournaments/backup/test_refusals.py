"""Backups the import refuses, with a message naming what is wrong, and nothing saved."""

import copy

import pytest

from tests.factories import UserFactory
from tests.tournaments.backup.conftest import delete_event, row_counts
from tournaments.errors import ServiceError
from tournaments.models import Event
from tournaments.services.backup_export import event_export
from tournaments.services.backup_import import event_import

pytestmark = pytest.mark.django_db


@pytest.fixture
def backup(event_in_play):
    event = event_in_play(4, qualifying_games=3)
    return event, event_export(event=event, include_tokens=True)


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"format": "tabbycat-tournament"}, "format", "Not a Pegboard event backup"),
        ({"version": 1}, "version", "version 1; this Pegboard reads version 2 only"),
    ],
)
def test_another_format_or_version_is_refused(backup, change, field, message):
    event, doc = backup
    delete_event(event, doc)
    before = row_counts()
    with pytest.raises(ServiceError, match=message) as refused:
        event_import(data={**doc, **change}, user=None)
    assert refused.value.field == field and row_counts() == before


def test_an_event_already_here_is_refused(backup):
    event, doc = backup
    before = row_counts()
    with pytest.raises(ServiceError, match=f"An event named '{event.name}' on no date is already"):
        event_import(data=doc, user=event.director)
    assert row_counts() == before


def test_private_links_in_use_here_are_refused(backup):
    event, doc = backup
    Event.objects.filter(pk=event.pk).update(name="Renamed")
    before = row_counts()
    with pytest.raises(ServiceError, match="already in use here") as refused:
        event_import(data=doc, user=event.director)
    assert refused.value.field == "include_tokens" and row_counts() == before


def test_a_damaged_backup_leaves_nothing_behind(backup):
    """The users and players are made before the seat that names no entry is reached."""
    event, doc = backup
    delete_event(event, doc)
    damaged = copy.deepcopy(doc)
    damaged["games"][0]["seats"][-1]["entry"] = "E99"
    importer = UserFactory(username="archivist")
    before = row_counts()
    with pytest.raises(ServiceError, match="names entry 'E99', which the backup does not") as no:
        event_import(data=damaged, user=importer)
    assert no.value.field == f"games[0].seats[{len(doc['games'][0]['seats']) - 1}].entry"
    assert row_counts() == before
    assert event_import(data=doc, user=importer).name == event.name  # the intact one works
