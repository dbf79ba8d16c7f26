"""The check-in desk (issue 22 item 13): a wrong tap is undone, with history; a search box
finds a name among many (as you type, or as a plain GET without scripts); the event's check-in
code is replaced by a director (page and API) and works only while registration is open."""

from __future__ import annotations

import pytest

from tests.factories import EventFactory, UserFactory
from tests.helpers import client_for
from tests.tournaments.check_in.conftest import messages_of, registered_entry
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Entry, Event
from tournaments.selectors.check_in import event_check_in_code
from tournaments.services.check_in import entry_check_in, entry_check_in_undo

pytestmark = pytest.mark.django_db


def _status(entry) -> str:
    entry.refresh_from_db()
    return entry.status


# Undo


def test_a_wrong_tap_is_undone_from_the_desk_with_history(client, event):
    entry = registered_entry(event, name="Margaret Oakes")
    client.force_login(event.director)
    client.post(
        f"/events/{event.pk}/check-in/everyone/", {"confirm": "yes", "entries": str(entry.pk)}
    )
    assert _status(entry) == "checked_in"
    desk = client.get(f"/events/{event.pk}/check-in/").content.decode()
    assert "Undo the check-in of Margaret Oakes" in desk
    undone = client.post(f"/events/{event.pk}/check-in/undo/", {"entries": str(entry.pk)})
    assert undone.status_code == 302
    assert messages_of(undone)[-1] == "Margaret Oakes is no longer checked in."
    assert _status(entry) == "registered" and entry.checked_in_at is None
    row = AuditEntry.objects.get(event=event, action="entry_check_in_undo")
    assert row.actor == event.director and row.before["status"] == "checked_in"
    assert row.after["status"] == "registered"


def test_undo_is_refused_once_the_player_is_paired(event_in_play):
    event = event_in_play(4, qualifying_games=3)
    entry = Entry.objects.filter(event=event).first()
    with pytest.raises(ServiceError, match="already paired in game 1") as refused:
        entry_check_in_undo(entry=entry, user=event.director)
    assert "withdraw" in refused.value.message
    assert _status(entry) == "checked_in"


def test_undo_of_a_player_not_checked_in_is_refused(event):
    entry = registered_entry(event)
    with pytest.raises(ServiceError, match="nothing to undo"):
        entry_check_in_undo(entry=entry, user=event.director)


def test_undo_is_for_the_events_director_only(client, event):
    entry = registered_entry(event)
    entry_check_in(entry=entry, user=event.director)
    client.force_login(EventFactory().created_by)
    refused = client.post(f"/events/{event.pk}/check-in/undo/", {"entries": str(entry.pk)})
    assert refused.status_code in (403, 404)
    assert _status(entry) == "checked_in"


def test_the_api_undoes_a_check_in(event):
    entry = registered_entry(event)
    entry_check_in(entry=entry, user=event.director)
    api = client_for(event.director)
    answer = api.post(f"/api/v1/entries/{entry.pk}/check-in/undo/")
    assert answer.status_code == 200 and answer.json()["status"] == "registered"
    again = api.post(f"/api/v1/entries/{entry.pk}/check-in/undo/")
    assert again.status_code == 400
    assert client_for(UserFactory()).post(
        f"/api/v1/entries/{entry.pk}/check-in/undo/"
    ).status_code in (403, 404)


# Search


def test_the_desk_finds_a_name_without_scripts(client, event):
    for name in ("Alice Marsh", "Bob Pegg", "Carol Marshall", "Dan Skunk"):
        registered_entry(event, name=name)
    client.force_login(event.director)
    page = client.get(f"/events/{event.pk}/check-in/", {"q": "marsh"}).content.decode()
    assert 'type="search"' in page and 'name="q"' in page and 'value="marsh"' in page
    assert "Alice Marsh" in page and "Carol Marshall" in page
    assert "Bob Pegg" not in page and "Dan Skunk" not in page
    assert "0 of 4" in page  # the count is the whole field's
    everyone = client.get(f"/events/{event.pk}/check-in/").content.decode()
    assert "Bob Pegg" in everyone and 'data-filter="#live .check-in-list li"' in everyone


# The check-in code


def _code_url(event, code=None) -> str:
    return f"/events/{event.pk}/check-in/{code or event_check_in_code(event)}/"


def test_a_new_code_replaces_the_old_one_which_says_to_scan_the_desk(client, event):
    user = UserFactory()
    mine = registered_entry(event, user=user)
    old = event_check_in_code(event)
    client.force_login(event.director)
    made = client.post(f"/events/{event.pk}/check-in/new-code/")
    assert made.status_code == 302
    event.refresh_from_db()
    new = event_check_in_code(event)
    assert new != old
    assert AuditEntry.objects.filter(event=event, action="check_in_code_rotate").count() == 1
    client.force_login(user)
    page = client.get(_code_url(event, old))
    assert page.status_code == 410
    assert "Scan the code shown at the desk now" in page.content.decode()
    refused = client.post(_code_url(event, old), {"check_in": "1"})
    assert refused.status_code == 410 and _status(mine) == "registered"
    client.post(_code_url(event, new), {"check_in": "1"})
    assert _status(mine) == "checked_in"


def test_a_code_made_before_codes_could_be_replaced_still_works(client, event):
    from django.core import signing

    printed = signing.Signer(salt="pegboard.event-check-in").signature(str(event.pk))[:22]
    assert printed == event_check_in_code(event)


def test_the_code_stops_working_when_registration_closes(client, event):
    user = UserFactory()
    mine = registered_entry(event, user=user)
    Event.objects.filter(pk=event.pk).update(stage=Event.Stage.QUALIFYING)
    client.force_login(user)
    refused = client.post(_code_url(event), {"check_in": "1"})
    assert "registration has closed" in " ".join(messages_of(refused))
    assert _status(mine) == "registered"
    client.force_login(event.director)
    desk = client.get(f"/events/{event.pk}/check-in/").content.decode()
    assert "this code no longer checks anyone in" in desk and "<svg" not in desk


def test_the_api_reads_and_replaces_the_code(event):
    api = client_for(event.director)
    url = f"/api/v1/events/{event.pk}/check-in-code/"
    first = api.get(url).json()
    assert first["code"] == event_check_in_code(event) and first["active"] is True
    assert first["url"].endswith(f"/events/{event.pk}/check-in/{first['code']}/")
    made = api.post(url)
    assert made.status_code == 201 and made.json()["code"] != first["code"]
    assert made.json()["version"] == first["version"] + 1
    assert api.get(url).json()["code"] == made.json()["code"]
    other = client_for(EventFactory().created_by)
    assert other.get(url).status_code in (403, 404) and other.post(url).status_code in (403, 404)
    assert client_for().post(url).status_code in (401, 403)
    event.refresh_from_db()
    assert event.check_in_code_version == 1
