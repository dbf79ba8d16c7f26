"""A doubles event never writes Master Rating Points (ACC satellites carry none), and the
pages say so; it cannot be sanctioned, nor a sanctioned event turned into doubles."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.errors import ServiceError
from tournaments.models import Event, MrpAward
from tournaments.selectors.sanctioning import event_sanction_status
from tournaments.services.events import event_update_settings
from tournaments.services.ledger import event_finalise_request
from tournaments.services.sanctioning import event_sanction_grant, event_sanction_request
from tournaments.services.teams import team_form

pytestmark = pytest.mark.django_db


def test_a_finished_doubles_event_writes_no_mrps(
    finished_event, django_capture_on_commit_callbacks
):
    event = finished_event()
    assert event.sanctioned
    # The singles event the fixture plays, turned doubles behind the services' back: even then
    # the ledger writes nothing (the services refuse the change, below).
    Event.objects.filter(pk=event.pk).update(style=Event.Style.DOUBLES)
    event.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        job = event_finalise_request(event=event, user=event.director)
    job.refresh_from_db()
    assert job.status == "succeeded", job.error
    assert not MrpAward.objects.filter(event=event).exists()
    assert event.audit_entries.filter(summary__contains="earns no Master Rating").exists()


def test_a_doubles_event_is_never_sanctioned():
    office = UserFactory(is_superuser=True)
    event = EventFactory(kind="main", style="doubles")
    for attempt in (
        lambda: event_sanction_request(event=event, user=event.created_by),
        lambda: event_sanction_grant(event=event, user=office),
    ):
        with pytest.raises(ServiceError) as refused:
            attempt()
        assert refused.value.code == "not_sanctionable"
    event.refresh_from_db()
    assert not event.sanctioned and event.sanction_requested_at is None
    status = event_sanction_status(event=event)
    assert status.state == "not_sanctionable" and "no Master Rating Points" in status.words


def test_a_sanctioned_event_cannot_become_doubles_nor_a_team_event_singles():
    event = EventFactory(kind="main")
    Event.objects.filter(pk=event.pk).update(sanctioned=True)  # the ACC office's decision
    event.refresh_from_db()
    with pytest.raises(ServiceError) as refused:
        event_update_settings(event=event, user=event.created_by, style="doubles")
    assert refused.value.code == "doubles_sanctioned"
    event.refresh_from_db()
    assert event.style == "singles"

    doubles = EventFactory(style="doubles")
    team_form(event=doubles, entries=EntryFactory.create_batch(2, event=doubles),
              user=doubles.created_by)  # fmt: skip
    with pytest.raises(ServiceError) as refused:
        event_update_settings(event=doubles, user=doubles.created_by, style="singles")
    assert refused.value.code == "has_teams"


def test_the_pages_say_a_doubles_event_earns_no_mrps():
    director = UserFactory()
    event = EventFactory(director=director, style="doubles", kind="satellite")
    client = Client()
    client.force_login(director)
    for path in (f"/events/{event.pk}/manage/", f"/events/{event.pk}/settings/"):
        text = client.get(path).content.decode()
        assert "no Master Rating Points" in text, path
