"""Who may restore an event through ``POST /api/v1/events/import/``, followed as a journey: an
account anyone can make (sign-up is open) sends a backup whose player carries a real player's
ACC number. Restored, that player's record would get the file's games and the sender would
direct the event; so only a site administrator may import, and a refusal changes nothing."""

import json

import pytest
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tournaments.models import Entry, Event, Player
from tournaments.services.backup_export import event_export

pytestmark = pytest.mark.django_db


def _crafted(event) -> dict:
    """The event's backup, renamed so it is not a duplicate, naming the same players."""
    doc = event_export(event=event)
    doc["event"]["name"] = "Made-up weekend"
    return json.loads(json.dumps(doc, default=str))


def test_an_ordinary_account_cannot_put_games_on_a_real_players_record(rich_event):
    event = rich_event()
    real = Player.objects.filter(entries__event=event).exclude(acc_number="").first()
    assert real is not None
    entries_before = Entry.objects.filter(player=real).count()
    stranger = APIClient()
    stranger.force_authenticate(UserFactory())  # any account: sign-up is open
    refused = stranger.post("/api/v1/events/import/", _crafted(event), format="json")
    assert refused.status_code == 403
    assert "site administrator" in refused.json()["errors"][0]["message"]
    assert not Event.objects.filter(name="Made-up weekend").exists()
    assert Entry.objects.filter(player=real).count() == entries_before


def test_a_site_administrator_imports_and_directs_it(rich_event):
    event = rich_event()
    admin = APIClient()
    admin.force_authenticate(UserFactory(is_staff=True))
    made = admin.post("/api/v1/events/import/", _crafted(event), format="json")
    assert made.status_code == 201, made.content
    assert Event.objects.filter(name="Made-up weekend").exists()
