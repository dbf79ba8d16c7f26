"""A weekend groups its events: made by page and API, an event in at most one weekend, an event
made with ``weekend`` or ``parent`` stored (never dropped), the public page lists events,
schedule and fees; only its directors change it."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.test import Client

from tests.factories import EventFactory, UserFactory
from tests.helpers import client_for
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Event, Weekend
from tournaments.services.weekends import weekend_create, weekend_event_add

pytestmark = pytest.mark.django_db
DAY = date.today() + timedelta(days=30)


@pytest.fixture
def director():
    return UserFactory(username="dora")


@pytest.fixture
def weekend(director):
    return weekend_create(
        user=director, name="Fall Classic", starts_on=DAY, schedule="Sat 9:00 Main\nSun 9:00 Sat"
    )


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_an_event_made_by_the_api_with_a_weekend_or_a_parent_keeps_it(director, weekend):
    api = client_for(director)
    main = api.post(
        "/api/v1/events/", {"name": "Fall Main", "preset": "acc-main", "weekend": weekend.pk}
    )
    assert main.status_code == 201 and main.json()["weekend"] == weekend.pk
    satellite = api.post(
        "/api/v1/events/",
        {"name": "Fall Satellite", "preset": "acc-main", "kind": "satellite",
         "parent": main.json()["id"]},
        format="json",
    )  # fmt: skip
    assert satellite.status_code == 201
    body = satellite.json()
    assert body["parent"] == main.json()["id"] and body["weekend"] == weekend.pk
    stored = Event.objects.get(pk=body["id"])
    assert stored.parent_id == main.json()["id"] and stored.weekend_id == weekend.pk
    page = api.get(f"/api/v1/weekends/{weekend.pk}/").json()
    assert [e["name"] for e in page["events"]] == ["Fall Main", "Fall Satellite"]


def test_a_weekend_or_parent_someone_else_runs_is_refused_and_nothing_is_made(weekend):
    other = client_for(UserFactory())
    answer = other.post(
        "/api/v1/events/", {"name": "Sneaky", "preset": "acc-main", "weekend": weekend.pk}
    )
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["field"] == "weekend"
    assert "ask one of its directors" in answer.json()["errors"][0]["message"]
    assert not Event.objects.filter(name="Sneaky").exists()


def test_an_event_belongs_to_at_most_one_weekend(director, weekend):
    event = EventFactory(director=director, name="Main")
    weekend_event_add(weekend=weekend, event=event, user=director)
    other = weekend_create(user=director, name="Spring Open", starts_on=DAY)
    with pytest.raises(ServiceError) as refused:
        weekend_event_add(weekend=other, event=event, user=director)
    assert refused.value.code == "in_another_weekend" and "Fall Classic" in refused.value.message
    event.refresh_from_db()
    assert event.weekend_id == weekend.pk
    assert AuditEntry.objects.filter(event=event, action="weekend_event_add").count() == 1


def test_the_public_page_lists_events_schedule_and_fees(director, weekend):
    event = EventFactory(director=director, name="Fall Main")
    Event.objects.filter(pk=event.pk).update(entry_fee_cents=4000, capacity=64)
    weekend_event_add(weekend=weekend, event=event, user=director)
    html = Client().get(f"/weekends/{weekend.pk}/").content.decode()
    assert "Fall Main" in html and "$40.00" in html and "64 of 64 places left" in html
    assert "Sat 9:00 Main" in html and "Registration is closed" in html


def test_weekend_pages_by_a_director_and_refusals_keep_what_was_typed(director):
    page = _signed_in(director)
    refused = page.post(
        "/weekends/new/",
        {"name": "Two Days", "starts_on": DAY.isoformat(),
         "ends_on": (DAY - timedelta(days=1)).isoformat()},
    )  # fmt: skip
    assert refused.status_code == 400
    html = refused.content.decode()
    assert "is before the first" in html and 'value="Two Days"' in html
    made = page.post("/weekends/new/", {"name": "Two Days", "starts_on": DAY.isoformat()})
    weekend = Weekend.objects.get(name="Two Days")
    assert made["Location"] == f"/weekends/{weekend.pk}/manage/"
    event = EventFactory(director=director, name="Two Days Main")
    added = page.post(f"/weekends/{weekend.pk}/events/", {"event": event.pk})
    assert added.status_code == 302
    event.refresh_from_db()
    assert event.weekend_id == weekend.pk


def test_only_its_directors_run_a_weekend(director, weekend):
    stranger = _signed_in(UserFactory())
    assert stranger.get(f"/weekends/{weekend.pk}/manage/").status_code == 403
    assert Client().get(f"/weekends/{weekend.pk}/manage/").status_code == 302
    api = client_for(UserFactory())
    answer = api.patch(f"/api/v1/weekends/{weekend.pk}/", {"name": "Mine now"}, format="json")
    assert answer.status_code == 403
    assert client_for().patch(f"/api/v1/weekends/{weekend.pk}/", {"name": "x"}).status_code in (
        401,
        403,
    )
    weekend.refresh_from_db()
    assert weekend.name == "Fall Classic"


def test_the_weekend_api_refuses_a_field_it_does_not_take(director):
    answer = client_for(director).post(
        "/api/v1/weekends/", {"name": "W", "starts_on": DAY.isoformat(), "colour": "red"}
    )
    assert answer.status_code == 400 and answer.json()["errors"][0]["field"] == "colour"
    assert not Weekend.objects.exists()
