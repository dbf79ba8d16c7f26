"""The keep-apart API (``/api/v1/events/<id>/keep-apart/``): the same service and rules as the
event's page, for its directors; a registration wish through the registrations API."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from rest_framework.test import APIClient

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tournaments.models import AuditEntry, KeepApart, RegistrationRequest
from tournaments.services.registrations import registration_approve
from tournaments.services.weekends import (
    weekend_create,
    weekend_event_add,
    weekend_registration_set,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    director = UserFactory(username="dora")
    event = EventFactory(director=director, name="Fall Main")
    for name in ("Ann Able", "Bob Baker", "Bob Baker", "Cy Cole"):
        EntryFactory(event=event, player=PlayerFactory(name=name))
    event.director = director
    return event


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _url(event, pair=None) -> str:
    return f"/api/v1/events/{event.pk}/keep-apart/" + (f"{pair}/" if pair else "")


def _ids(event) -> list[int]:
    return list(event.entries.order_by("pk").values_list("pk", flat=True))


def test_the_director_adds_lists_and_removes_a_pair_each_in_the_history(event):
    api, (ann, _, _, cy) = _api(event.director), _ids(event)
    made = api.post(_url(event), {"entry_a": cy, "entry_b": ann, "note": "couple"}, format="json")
    assert made.status_code == 201
    assert made.json()["entry_a"] == ann and made.json()["entry_b_name"] == "Cy Cole"
    again = api.post(_url(event), {"entry_a": ann, "entry_b": cy}, format="json")
    assert again.status_code == 200 and again.json()["id"] == made.json()["id"]
    listed = api.get(_url(event)).json()
    assert [p["note"] for p in listed["pairs"]] == ["couple"] and listed["wishes"] == []
    gone = api.delete(_url(event, made.json()["id"]))
    assert gone.status_code == 204 and not KeepApart.objects.exists()
    assert api.delete(_url(event, made.json()["id"])).status_code == 404
    actions = AuditEntry.objects.filter(event=event, kind="pairings").values_list(
        "action", flat=True
    )
    assert sorted(actions) == ["keep_apart_add", "keep_apart_add", "keep_apart_remove"]


def test_refusals_name_the_cause_and_the_way_forward_and_change_nothing(event):
    api, (ann, *_) = _api(event.director), _ids(event)
    same = api.post(_url(event), {"entry_a": ann, "entry_b": ann}, format="json")
    assert same.status_code == 400
    assert "Choose two different players" in same.json()["errors"][0]["message"]
    stranger = EntryFactory().pk
    elsewhere = api.post(_url(event), {"entry_a": ann, "entry_b": stranger}, format="json")
    message = elsewhere.json()["errors"][0]["message"]
    assert elsewhere.status_code == 400 and "enter the other player first" in message
    unknown = api.post(_url(event), {"entry_a": ann, "entry_b": ann + 1, "why": "x"}, format="json")
    assert unknown.status_code == 400 and unknown.json()["errors"][0]["field"] == "why"
    no_wish = api.post(
        _url(event), {"entry_a": ann, "entry_b": ann + 1, "wish": 999}, format="json"
    )
    assert (
        no_wish.status_code == 400 and "Reload the page" in no_wish.json()["errors"][0]["message"]
    )
    assert not KeepApart.objects.exists()
    assert not AuditEntry.objects.filter(event=event, action__startswith="keep_apart").exists()


def test_another_director_reaches_nothing(event):
    other = _api(UserFactory())
    assert other.get(_url(event)).status_code in (403, 404)
    ann, bob, *_ = _ids(event)
    answer = other.post(_url(event), {"entry_a": ann, "entry_b": bob}, format="json")
    assert answer.status_code in (403, 404) and not KeepApart.objects.exists()


def test_a_wish_sent_through_the_api_is_listed_and_settled_by_the_director(event):
    weekend = weekend_create(
        user=event.director, name="Fall", starts_on=date.today() + timedelta(9)
    )
    weekend_event_add(weekend=weekend, event=event, user=event.director)
    weekend_registration_set(weekend=weekend, user=event.director, open=True)
    sent = APIClient().post(
        f"/api/v1/weekends/{weekend.pk}/registrations/",
        {"name": "Di Dunn", "keep_apart_name": "Bob Baker", "events": [event.pk]},
        format="json",
    )
    assert sent.status_code == 201 and sent.json()["keep_apart_name"] == "Bob Baker"
    request = RegistrationRequest.objects.get()
    registration_approve(request=request, user=event.director, new_player=True)
    screen = _api(event.director).get(_url(event)).json()
    (wish,) = screen["wishes"]
    assert wish["entry_name"] == "Di Dunn" and wish["name"] == "Bob Baker"
    assert [c["name"] for c in wish["candidates"]] == ["Bob Baker", "Bob Baker"]
    chosen = wish["candidates"][1]["entry"]
    made = _api(event.director).post(
        _url(event),
        {"entry_a": wish["entry"], "entry_b": chosen, "wish": wish["id"]},
        format="json",
    )
    assert made.status_code == 201
    assert _api(event.director).get(_url(event)).json()["wishes"] == []
    mine = APIClient().get(f"/api/v1/registrations/private/{request.token}/").json()
    assert mine["choices"][0]["keep_apart"] == made.json()["id"]
