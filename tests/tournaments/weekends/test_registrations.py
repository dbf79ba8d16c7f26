"""Public registration for a weekend: a player asks by page or API; the director approves
(matched to a known player, never merged silently), declines with a reason the player sees, or
asks for a change; the player follows it on a private page. Past a capacity, the waitlist:
a visible position, and a freed place offered to the next in line, who has a set time."""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tests.helpers import client_for
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Entry, Event, RegistrationChoice, RegistrationRequest
from tournaments.services.entries import PlayerChoiceNeeded
from tournaments.services.registration_choices import waitlist_offer_take
from tournaments.services.registrations import registration_approve, registration_request_create
from tournaments.services.waitlist import event_capacity_set, waitlist_sweep
from tournaments.services.weekends import (
    weekend_create,
    weekend_event_add,
    weekend_event_remove,
    weekend_registration_set,
)
from tournaments.services.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db
DAY = date.today() + timedelta(days=30)


@pytest.fixture
def director():
    return UserFactory(username="dora")


@pytest.fixture
def weekend(director):
    weekend = weekend_create(user=director, name="Fall Classic", starts_on=DAY)
    for name in ("Fall Main", "Fall Satellite"):
        event = EventFactory(director=director, name=name)
        weekend_event_add(weekend=weekend, event=event, user=director)
    weekend_registration_set(weekend=weekend, user=director, open=True)
    return weekend


def _event(weekend, name="Fall Main") -> Event:
    return weekend.events.get(name=name)


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _ask(weekend, name="Ann Newcomer", **extra):
    events = extra.pop("events", [_event(weekend).pk])
    return registration_request_create(weekend=weekend, name=name, event_ids=events, **extra)


def test_a_player_asks_by_page_and_the_director_approves_into_both_events(
    weekend, director, django_capture_on_commit_callbacks
):
    page = Client().get(f"/weekends/{weekend.pk}/register/")
    assert page.status_code == 200 and "Send my request" in page.content.decode()
    ids = list(weekend.events.values_list("pk", flat=True))
    with django_capture_on_commit_callbacks(execute=True):
        sent = Client().post(
            f"/weekends/{weekend.pk}/register/",
            {"name": "Ann Newcomer", "acc_number": "A1234", "email": "ann@example.org",
             "partner_name": "Bob Partner", "events": ids},
        )  # fmt: skip
    assert sent.status_code == 302 and sent["Location"].startswith("/registration/")
    assert mail.outbox[-1].to == ["ann@example.org"]
    request = RegistrationRequest.objects.get()
    assert request.partner_name == "Bob Partner"
    status = Client().get(sent["Location"]).content.decode()
    assert "Waiting for the director" in status

    with django_capture_on_commit_callbacks(execute=True):
        approved = _signed_in(director).post(
            f"/weekends/{weekend.pk}/requests/{request.pk}/approve/"
        )
    assert approved.status_code == 302
    entries = Entry.objects.filter(player__acc_number="A1234")
    assert sorted(e.event.name for e in entries) == ["Fall Main", "Fall Satellite"]
    assert "approved" in mail.outbox[-1].subject
    status = Client().get(sent["Location"]).content.decode()
    assert status.count("Entered") == 2
    history = AuditEntry.objects.filter(action="registration_approve")
    assert history.count() == 2 and all(row.actor_id == director.pk for row in history)
    asked = AuditEntry.objects.filter(action="registration_request_create")
    assert asked.count() == 2 and all(row.actor_id is None for row in asked)


def test_a_request_for_an_event_taken_off_the_weekend_is_not_approved_into_it(weekend, director):
    satellite = _event(weekend, "Fall Satellite")
    request = _ask(weekend, events=[_event(weekend).pk, satellite.pk])
    weekend_event_remove(weekend=weekend, event=satellite, user=director)
    refused = _signed_in(director).post(f"/weekends/{weekend.pk}/requests/{request.pk}/approve/")
    page = refused.content.decode()
    assert refused.status_code == 400  # the weekend's page again, the refusal at the request
    assert "Fall Satellite is no longer part of Fall Classic" in page
    assert "Ask the player for a change" in page
    assert not Entry.objects.filter(player__name="Ann Newcomer").exists()
    request.refresh_from_db()
    assert request.status == RegistrationRequest.Status.WAITING  # still the director's to decide

    # A finished event is refused the same way, by the API too.
    Event.objects.filter(pk=_event(weekend).pk).update(stage=Event.Stage.FINISHED)
    weekend_event_add(weekend=weekend, event=satellite, user=director)
    answer = client_for(director).post(
        f"/api/v1/registrations/{request.pk}/approve/", {}, format="json"
    )
    assert answer.status_code == 400, answer.json()
    assert answer.json()["errors"][0]["code"] == "event_gone"
    assert "Fall Main is finished" in answer.json()["errors"][0]["message"]
    assert not Entry.objects.filter(player__name="Ann Newcomer").exists()


def test_a_name_that_may_be_a_known_player_is_never_merged_silently(weekend, director):
    known = PlayerFactory(name="Ann Newcomer", acc_number="")
    EntryFactory(player=known, event=EventFactory(director=director, name="Older"))
    request = _ask(weekend)
    with pytest.raises(PlayerChoiceNeeded):
        registration_approve(request=request, user=director)
    assert not Entry.objects.filter(event__weekend=weekend).exists()
    manage = _signed_in(director).get(f"/weekends/{weekend.pk}/manage/").content.decode()
    assert f'name="player" value="{known.pk}"' in manage and 'value="new"' in manage
    registration_approve(request=request, user=director, player_id=known.pk)
    assert Entry.objects.get(event=_event(weekend)).player == known


def test_declined_with_a_reason_the_player_sees(weekend, director):
    request = _ask(weekend)
    refused = _signed_in(director).post(
        f"/weekends/{weekend.pk}/requests/{request.pk}/decline/", {"note": ""}, follow=True
    )
    assert "Write the reason" in refused.content.decode()
    _signed_in(director).post(
        f"/weekends/{weekend.pk}/requests/{request.pk}/decline/",
        {"note": "The Main is full of members only this year."},
    )
    html = Client().get(f"/registration/{request.token}/").content.decode()
    assert "Declined" in html and "members only this year" in html


def test_a_change_asked_is_made_by_the_player_and_waits_again(weekend, director):
    request = _ask(weekend, acc_number="")
    _signed_in(director).post(
        f"/weekends/{weekend.pk}/requests/{request.pk}/change/", {"note": "Your ACC number?"}
    )
    page = Client().get(f"/registration/{request.token}/").content.decode()
    assert "Your ACC number?" in page and 'value="Ann Newcomer"' in page
    refused = Client().post(
        f"/registration/{request.token}/change/", {"name": "Ann Newcomer", "acc_number": "!!"}
    )
    assert refused.status_code == 400
    kept = refused.content.decode()
    assert 'value="!!"' in kept and "Tick at least one event" in kept
    Client().post(
        f"/registration/{request.token}/change/",
        {"name": "Ann Newcomer", "acc_number": "A777", "events": [_event(weekend).pk]},
    )
    request.refresh_from_db()
    assert request.status == "waiting" and request.acc_number == "A777"


def test_closed_registration_says_so_and_takes_nothing(weekend, director):
    page = _signed_in(director)
    confirm = page.post(f"/weekends/{weekend.pk}/registration/close/")
    assert confirm.status_code == 200 and "Yes, close it" in confirm.content.decode()
    weekend.refresh_from_db()
    assert weekend.registration_open  # not before the confirmation
    page.post(f"/weekends/{weekend.pk}/registration/close/", {"confirm": "yes"})
    answer = Client().post(
        f"/weekends/{weekend.pk}/register/", {"name": "Late", "events": [_event(weekend).pk]}
    )
    assert "Registration is closed" in answer.content.decode()
    api = client_for().post(
        f"/api/v1/weekends/{weekend.pk}/registrations/",
        {"name": "Late", "events": [_event(weekend).pk]},
        format="json",
    )
    assert api.status_code == 400 and api.json()["errors"][0]["code"] == "registration_closed"
    assert not RegistrationRequest.objects.exists()
    page.post(f"/weekends/{weekend.pk}/registration/open/", {"confirm": "yes"})
    weekend.refresh_from_db()
    assert weekend.registration_open


def test_past_capacity_a_waitlist_with_positions_and_a_freed_place_offered_in_turn(
    weekend, director, django_capture_on_commit_callbacks
):
    main = _event(weekend)
    event_capacity_set(event=main, user=director, capacity=1)
    first, second, third = (
        _ask(weekend, name=n, acc_number=f"W{i}", email=f"p{i}@example.org")
        for i, n in enumerate(["Ann One", "Bea Two", "Cy Three"])
    )
    for request in (first, second, third):
        registration_approve(request=request, user=director)
    assert Entry.objects.filter(event=main).count() == 1
    html = Client().get(f"/registration/{third.token}/").content.decode()
    assert "number 2 in line" in html

    with django_capture_on_commit_callbacks(execute=True):
        entry_withdraw(entry=Entry.objects.get(event=main), user=director)
    offered = RegistrationChoice.objects.get(request=second)
    assert offered.status == "offered" and offered.offer_expires_at > timezone.now()
    assert mail.outbox[-1].to == ["p1@example.org"] and "Fall Main" in mail.outbox[-1].subject

    # Bea lets the time pass: on the next read (or the scheduler's sweep) it passes to Cy.
    RegistrationChoice.objects.filter(pk=offered.pk).update(
        offer_expires_at=timezone.now() - timedelta(minutes=1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert waitlist_sweep() == 1
    assert RegistrationChoice.objects.get(pk=offered.pk).status == "lapsed"
    with pytest.raises(ServiceError) as late:
        waitlist_offer_take(choice=offered)
    assert late.value.code == "offer_lapsed" and "passed on" in late.value.message
    cys = RegistrationChoice.objects.get(request=third)
    assert cys.status == "offered"
    took = Client().post(f"/registration/{third.token}/take/{cys.pk}/")
    assert took.status_code == 302
    assert Entry.objects.get(event=main, status="registered").player.name == "Cy Three"
    assert AuditEntry.objects.filter(event=main, action="waitlist_offer_lapse").count() == 1


def test_a_raised_capacity_offers_the_new_place_at_once(weekend, director):
    main = _event(weekend)
    event_capacity_set(event=main, user=director, capacity=0)
    request = _ask(weekend, acc_number="R1")
    registration_approve(request=request, user=director)
    assert RegistrationChoice.objects.get(request=request).status == "waitlisted"
    _signed_in(director).post(f"/weekends/{weekend.pk}/events/{main.pk}/capacity/", {"capacity": 1})
    assert RegistrationChoice.objects.get(request=request).status == "offered"


def test_the_api_asks_lists_approves_and_shows_the_private_page(weekend, director):
    answer = client_for().post(
        f"/api/v1/weekends/{weekend.pk}/registrations/",
        {"name": "Api Player", "acc_number": "P9", "events": [_event(weekend).pk]},
        format="json",
    )
    assert answer.status_code == 201
    body = answer.json()
    token = re.search(r"/registration/([^/]+)/", body["status_url"]).group(1)
    listed = client_for(director).get(f"/api/v1/weekends/{weekend.pk}/registrations/")
    assert [r["name"] for r in listed.json()] == ["Api Player"]
    assert (
        client_for(UserFactory()).get(f"/api/v1/weekends/{weekend.pk}/registrations/").status_code
        == 403
    )
    stranger = client_for(UserFactory()).post(f"/api/v1/registrations/{body['id']}/approve/")
    assert stranger.status_code == 403
    approved = client_for(director).post(f"/api/v1/registrations/{body['id']}/approve/")
    assert approved.status_code == 200 and approved.json()["status"] == "approved"
    private = client_for().get(f"/api/v1/registrations/private/{token}/").json()
    assert private["choices"][0]["status"] == "entered"
    unknown = client_for().post(
        f"/api/v1/weekends/{weekend.pk}/registrations/",
        {"name": "X", "events": [_event(weekend).pk], "shoe_size": 9},
        format="json",
    )
    assert unknown.status_code == 400 and unknown.json()["errors"][0]["field"] == "shoe_size"
