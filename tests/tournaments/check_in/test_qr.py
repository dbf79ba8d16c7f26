"""Check-in by QR code (issue 16): a player checks in on their phone, by their private link or,
signed in, by the event's code at the desk, always with a tap to confirm; the desk's page
follows who is in, live, and checks in everyone present at once."""

from __future__ import annotations

import pytest

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tests.tournaments.check_in.conftest import messages_of, registered_entry
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Entry, Event
from tournaments.services.check_in import entry_self_check_in
from tournaments.views.check_in import event_check_in_code

pytestmark = pytest.mark.django_db


def _code_url(event) -> str:
    return f"/events/{event.pk}/check-in/{event_check_in_code(event)}/"


def _status(entry) -> str:
    entry.refresh_from_db()
    return entry.status


# By the private link


def test_opening_the_link_does_nothing_and_the_tap_checks_in(client, event):
    entry = registered_entry(event)
    url = f"/r/{entry.report_token}/"
    page = client.get(url)
    assert "Yes, I am here: check me in" in page.content.decode()
    assert (
        _status(entry) == "registered"
        and not AuditEntry.objects.filter(event=event, kind="check_in").exists()
    )
    done = client.post(url, {"check_in": "1"}, follow=True)
    assert _status(entry) == "checked_in" and entry.checked_in_at is not None
    assert "You are checked in" in done.content.decode()
    row = AuditEntry.objects.get(event=event, kind="check_in")
    assert row.action == "entry_self_check_in" and entry.player.name in row.summary


def test_a_director_opening_a_players_link_does_not_check_them_in(client, event):
    entry = registered_entry(event)
    client.force_login(event.director)
    assert client.get(f"/r/{entry.report_token}/").status_code == 200
    assert _status(entry) == "registered"


def test_checking_in_twice_writes_once(client, event):
    entry = registered_entry(event)
    client.post(f"/r/{entry.report_token}/", {"check_in": "1"})
    again = client.post(f"/r/{entry.report_token}/", {"check_in": "1"})
    assert messages_of(again)[-1] == "You are already checked in."
    assert AuditEntry.objects.filter(event=event, kind="check_in").count() == 1


def test_no_phone_check_in_once_registration_has_closed(client, event):
    entry = registered_entry(event)
    Event.objects.filter(pk=event.pk).update(stage=Event.Stage.QUALIFYING)
    page = client.get(f"/r/{entry.report_token}/")
    assert "check me in" not in page.content.decode()
    refused = client.post(f"/r/{entry.report_token}/", {"check_in": "1"})
    assert refused.status_code == 302 and "registration has closed" in messages_of(refused)[0]
    assert _status(entry) == "registered"


def test_a_withdrawn_player_cannot_check_in_by_themselves(event):
    entry = EntryFactory(event=event, status="withdrawn")
    with pytest.raises(ServiceError, match="withdrawn"):
        entry_self_check_in(entry=entry, user=None)


# By the event's code, signed in


def test_the_event_code_checks_in_the_signed_in_players_own_entry_only(client, event):
    user = UserFactory()
    mine = registered_entry(event, user=user)
    someone = registered_entry(event)
    client.force_login(user)
    page = client.get(_code_url(event))
    assert page.status_code == 200 and mine.player.name in page.content.decode()
    assert someone.player.name not in page.content.decode()
    assert _status(mine) == "registered"
    done = client.post(_code_url(event), {"check_in": "1", "entry": someone.pk}, follow=True)
    assert "You are checked in" in done.content.decode()
    assert _status(mine) == "checked_in" and _status(someone) == "registered"
    assert AuditEntry.objects.get(event=event, kind="check_in").actor == user


def test_the_event_code_needs_a_signed_in_visitor_and_the_right_code(client, event):
    registered_entry(event)
    assert client.get(_code_url(event))["Location"].startswith("/accounts/login/")
    client.force_login(UserFactory())
    assert client.get(f"/events/{event.pk}/check-in/not-the-code/").status_code == 404
    other = EventFactory(director=event.director)
    assert (
        client.get(f"/events/{event.pk}/check-in/{event_check_in_code(other)}/").status_code == 404
    )


@pytest.mark.parametrize(
    ("who", "says"),
    [
        ("not_linked", "not linked to a player"),
        ("not_entered", "is not entered in"),
        ("closed", "registration has closed"),
    ],
)
def test_the_event_code_refuses_with_a_message(client, event, who, says):
    user = UserFactory()
    if who == "not_entered":
        PlayerFactory(user=user)
    if who == "closed":
        entry = registered_entry(event, user=user)
        Event.objects.filter(pk=event.pk).update(stage=Event.Stage.QUALIFYING)
    client.force_login(user)
    assert says in client.get(_code_url(event)).content.decode()
    refused = client.post(_code_url(event), {"check_in": "1"})
    assert refused.status_code == 302 and says in " ".join(messages_of(refused))
    assert not Entry.objects.filter(event=event, status="checked_in").exists()
    assert not AuditEntry.objects.filter(event=event, kind="check_in").exists()
    if who == "closed":
        assert _status(entry) == "registered"


# The desk


def test_the_desk_page_counts_and_its_live_part_changes_after_a_check_in(client, event):
    EntryFactory.create_batch(2, event=event)
    waiting = [registered_entry(event) for _ in range(3)]
    client.force_login(event.director)
    page = client.get(f"/events/{event.pk}/check-in/").content.decode()
    assert "2 of 5" in page and event_check_in_code(event) in page and "<svg" in page
    part = client.get(f"/events/{event.pk}/check-in/?part=live")
    assert part.status_code == 200 and "<html" not in part.content.decode()
    again = client.get(f"/events/{event.pk}/check-in/?part=live", HTTP_IF_NONE_MATCH=part["ETag"])
    assert again.status_code == 304
    entry_self_check_in(entry=waiting[0], user=None)
    changed = client.get(f"/events/{event.pk}/check-in/?part=live", HTTP_IF_NONE_MATCH=part["ETag"])
    assert changed.status_code == 200 and "3 of 5" in changed.content.decode()


def test_the_desk_button_checks_one_player_in_at_once(client, event):
    entry = registered_entry(event)
    client.force_login(event.director)
    done = client.post(
        f"/events/{event.pk}/check-in/everyone/", {"confirm": "yes", "entries": str(entry.pk)}
    )
    assert done["Location"] == f"/events/{event.pk}/check-in/"
    assert messages_of(done) == [f"{entry.player.name} is checked in."]
    assert _status(entry) == "checked_in"


def test_check_in_everyone_present_asks_then_counts(client, event):
    waiting = [registered_entry(event) for _ in range(20)]
    here, away = waiting[:16], waiting[16:]
    url = f"/events/{event.pk}/check-in/everyone/"
    client.force_login(event.director)
    form = client.get(url).content.decode()
    assert all(e.player.name in form for e in waiting)
    asked = client.post(url, {"entry": [e.pk for e in here]})
    assert asked.status_code == 200 and "Check in 16 players?" in asked.content.decode()
    assert all(_status(e) == "registered" for e in waiting)
    ids = ",".join(str(e.pk) for e in here)
    done = client.post(url, {"confirm": "yes", "entries": ids})
    assert messages_of(done) == ["16 players checked in."]
    assert all(_status(e) == "checked_in" for e in here)
    assert all(_status(e) == "registered" for e in away)
    row = AuditEntry.objects.get(event=event, kind="check_in")
    assert row.action == "entries_check_in" and row.summary == "16 players checked in"


def test_check_in_everyone_present_needs_a_tick_and_this_events_players(client, event):
    other = registered_entry(EventFactory(director=event.director))
    url = f"/events/{event.pk}/check-in/everyone/"
    client.force_login(event.director)
    assert client.post(url, {}).status_code == 400
    refused = client.post(url, {"confirm": "yes", "entries": str(other.pk)})
    assert messages_of(refused) == ["Choose at least one player who is not checked in yet."]
    assert _status(other) == "registered"


def test_only_the_events_director_has_the_desk(client, event):
    for path in ("", "everyone/"):
        url = f"/events/{event.pk}/check-in/{path}"
        assert client.get(url)["Location"].startswith("/accounts/login/")
        client.force_login(UserFactory())
        assert client.get(url).status_code == 403
        client.logout()
