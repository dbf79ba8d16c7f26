"""Sanctioning is the ACC office's: a director asks, the office grants or declines it, and may
withdraw it; no director sets it on their own event."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from tests.factories import EventFactory, UserFactory
from tests.helpers import client_for
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Event
from tournaments.services.events import event_create
from tournaments.services.sanctioning import (
    event_sanction_decline,
    event_sanction_grant,
    event_sanction_request,
    event_sanction_revoke,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def main():
    director = UserFactory()
    event = EventFactory(director=director, preset="acc-main", name="Spring Main")
    event.director = director
    return event


@pytest.fixture
def office():
    user = UserFactory()
    user.user_permissions.add(Permission.objects.get(codename="sanction_event"))
    return user


def test_a_preset_sanctions_nothing_and_a_director_cannot(main):
    assert main.sanctioned is False
    with pytest.raises(ServiceError) as refused:
        event_create(user=main.director, name="Mine", preset="acc-main", sanctioned=True)
    assert refused.value.field == "sanctioned"


def test_ask_then_the_office_grants(main, office):
    event_sanction_request(event=main, user=main.director)
    with pytest.raises(ServiceError, match="already"):
        event_sanction_request(event=main, user=main.director)
    with pytest.raises(ServiceError, match="ACC office"):
        event_sanction_grant(event=main, user=main.director)
    event_sanction_grant(event=main, user=office)
    main.refresh_from_db()
    assert main.sanctioned and main.sanction_requested_at is None
    actions = list(
        AuditEntry.objects.filter(event=main, kind="sanctioning")
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == ["event_sanction_request", "event_sanction_grant"]


def test_declined_with_words_the_director_reads(main, office, client):
    event_sanction_request(event=main, user=main.director)
    with pytest.raises(ServiceError, match="Say why"):
        event_sanction_decline(event=main, user=office, note="")
    event_sanction_decline(event=main, user=office, note="Not on the ACC calendar")
    client.force_login(main.director)
    page = client.get(f"/events/{main.pk}/settings/").content.decode()
    assert "Not on the ACC calendar" in page and "Ask the ACC office" in page


def test_club_nights_and_satellites_are_not_sanctioned(office):
    night = EventFactory()
    with pytest.raises(ServiceError, match="Only a Main or a Consolation"):
        event_sanction_request(event=night, user=night.created_by)
    with pytest.raises(ServiceError):
        event_sanction_grant(event=night, user=office)


def test_the_api_refuses_sanctioned_as_a_setting(main):
    api = client_for(main.director)
    made = api.post("/api/v1/events/", {"name": "X", "preset": "acc-main", "sanctioned": True})
    assert made.status_code == 400
    assert made.json()["errors"][0]["field"] == "sanctioned"
    assert not Event.objects.filter(name="X").exists()
    patched = api.patch(f"/api/v1/events/{main.pk}/", {"sanctioned": True})
    assert patched.status_code == 400
    main.refresh_from_db()
    assert main.sanctioned is False


def test_the_api_flow(main, office):
    director, desk = client_for(main.director), client_for(office)
    assert director.get(f"/api/v1/events/{main.pk}/sanctioning/").json()["state"] == "not_asked"
    asked = director.post(f"/api/v1/events/{main.pk}/sanctioning/request/")
    assert asked.status_code == 200 and asked.json()["state"] == "requested"
    assert director.post(f"/api/v1/events/{main.pk}/sanctioning/grant/").status_code == 403
    assert client_for(UserFactory()).get("/api/v1/sanctioning/requests/").status_code == 403
    waiting = desk.get("/api/v1/sanctioning/requests/").json()["results"]
    assert [row["event_id"] for row in waiting] == [main.pk]
    granted = desk.post(f"/api/v1/events/{main.pk}/sanctioning/grant/", {"note": "OK"})
    assert granted.status_code == 200 and granted.json()["state"] == "sanctioned"
    revoked = desk.post(f"/api/v1/events/{main.pk}/sanctioning/revoke/", {})
    assert revoked.status_code == 400 and revoked.json()["errors"][0]["field"] == "note"
    revoked = desk.post(f"/api/v1/events/{main.pk}/sanctioning/revoke/", {"note": "Mistake"})
    assert revoked.json()["state"] == "withdrawn" and revoked.json()["sanctioned"] is False


def test_the_office_page(main, office, client):
    event_sanction_request(event=main, user=main.director)
    client.force_login(main.director)
    assert client.get("/sanctioning/").status_code == 403
    assert client.post(f"/sanctioning/{main.pk}/grant/").status_code == 403
    client.force_login(office)
    page = client.get("/sanctioning/").content.decode()
    assert "Spring Main" in page
    client.post(f"/sanctioning/{main.pk}/grant/")
    main.refresh_from_db()
    assert main.sanctioned
    client.post(f"/sanctioning/{main.pk}/revoke/", {"note": ""})
    main.refresh_from_db()
    assert main.sanctioned  # a withdrawal needs its reason
    event_sanction_revoke(event=main, user=office, note="Wrong event")
    main.refresh_from_db()
    assert not main.sanctioned and main.sanction_decision == "withdrawn"
