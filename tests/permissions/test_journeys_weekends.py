"""Journeys through the weekend's public registration (issue 27), walked as an attacker with
nothing but a registration request's private page (anyone may send a request, no account):

- a request naming a player who is already entered (by the director at the desk, or by the
  player's own request), approved as a harmless duplicate: its page must not withdraw the
  real player's entry;
- a request's own entry once play has started: withdrawing between games is the director's
  step (the request's page says so), not a button on a page anyone with its address may press.

Each refused step is asserted to change nothing (``tests.permissions.snapshot.state``).
"""

from __future__ import annotations

import re
from datetime import date, timedelta

import pytest

from tests.factories import EventFactory, PlayerFactory, UserFactory
from tests.helpers import client_for
from tests.permissions.snapshot import state
from tournaments.models import Entry, Game, RegistrationChoice
from tournaments.services.entries import Registration, entry_register
from tournaments.services.weekends import (
    weekend_create,
    weekend_event_add,
    weekend_registration_set,
)

pytestmark = pytest.mark.django_db
DAY = date.today() + timedelta(days=30)


@pytest.fixture
def dora():
    return UserFactory(username="dora")


@pytest.fixture
def main(dora):
    """Dora's weekend with one event, registration open."""
    weekend = weekend_create(user=dora, name="Fall Classic", starts_on=DAY)
    event = EventFactory(director=dora, name="Fall Main")
    weekend_event_add(weekend=weekend, event=event, user=dora)
    weekend_registration_set(weekend=weekend, user=dora, open=True)
    event.refresh_from_db()
    return event


def _ask(event, **details) -> tuple[int, str, int]:
    """A request sent anonymously through the API: (its id, its private token, its choice)."""
    answer = client_for().post(
        f"/api/v1/weekends/{event.weekend_id}/registrations/",
        {**details, "events": [event.pk]},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    body = answer.json()
    token = re.search(r"/registration/([^/]+)/", body["status_url"]).group(1)
    return body["id"], token, body["choices"][0]["id"]


def test_a_duplicate_request_approved_cannot_withdraw_the_player_already_entered(main, dora):
    vera = PlayerFactory(name="Vera Vale", acc_number="V-100")
    entered = entry_register(
        event=main, registration=Registration(name="Vera Vale", acc_number="V-100"), user=dora
    )
    # Eve asks in Vera's name (her name and number are on the public player pages).
    request_id, token, choice_id = _ask(
        main, name="Vera Vale", acc_number="V-100", email="eve@example.org"
    )
    approved = client_for(dora).post(f"/api/v1/registrations/{request_id}/approve/")
    assert approved.status_code == 200, approved.json()
    assert approved.json()["choices"][0]["status"] == "entered"  # Vera is in, as the page says

    before = state()
    refused = client_for().post(f"/api/v1/registrations/private/{token}/give-up/{choice_id}/")
    assert refused.status_code == 400, refused.json()
    message = refused.json()["errors"][0]["message"]
    assert "before this request" in message and "director" in message
    assert state() == before
    entered.refresh_from_db()
    assert entered.status != Entry.Status.WITHDRAWN and entered.player == vera


def test_a_request_entered_once_play_started_is_withdrawn_by_the_director_only(main, dora):
    request_id, token, choice_id = _ask(main, name="Ann Newcomer", email="ann@example.org")
    client_for(dora).post(f"/api/v1/registrations/{request_id}/approve/")
    entry = RegistrationChoice.objects.get(pk=choice_id).entry
    assert entry is not None
    Game.objects.create(event=main, number=1, status=Game.Status.PUBLISHED)  # game 1 is paired

    before = state()
    refused = client_for().post(f"/api/v1/registrations/private/{token}/give-up/{choice_id}/")
    assert refused.status_code == 400, refused.json()
    assert "ask the director" in refused.json()["errors"][0]["message"]
    assert state() == before
    entry.refresh_from_db()
    assert entry.status != Entry.Status.WITHDRAWN


def test_before_play_the_request_still_withdraws_its_own_entry(main, dora):
    request_id, token, choice_id = _ask(main, name="Ann Newcomer", email="ann@example.org")
    client_for(dora).post(f"/api/v1/registrations/{request_id}/approve/")
    entry = RegistrationChoice.objects.get(pk=choice_id).entry
    given_up = client_for().post(f"/api/v1/registrations/private/{token}/give-up/{choice_id}/")
    assert given_up.status_code == 200, given_up.json()
    entry.refresh_from_db()
    assert entry.status == Entry.Status.WITHDRAWN


def test_a_weekend_names_a_club_only_for_that_clubs_directors(dora):
    """Anyone may make a weekend, but naming a club as its host is the club's to say: a
    stranger's weekend (with a registration page collecting names, addresses and phones)
    must not be listed as a real club's."""
    from tournaments.services.clubs import club_create

    club = club_create(name="Tuesday Pegs", user=dora)
    stranger = client_for(UserFactory())
    before = state()
    made = stranger.post(
        "/api/v1/weekends/",
        {"name": "Tuesday Pegs Open", "starts_on": DAY.isoformat(), "club": club.pk},
        format="json",
    )
    assert made.status_code == 400, made.json()
    error = made.json()["errors"][0]
    assert error["field"] == "club" and "Tuesday Pegs" in error["message"]
    assert state() == before
    own = stranger.post(
        "/api/v1/weekends/", {"name": "Mine", "starts_on": DAY.isoformat()}, format="json"
    ).json()["weekend"]
    before = state()
    patched = stranger.patch(f"/api/v1/weekends/{own['id']}/", {"club": club.pk}, format="json")
    assert patched.status_code == 400 and patched.json()["errors"][0]["field"] == "club"
    assert state() == before
    hosted = client_for(dora).post(
        "/api/v1/weekends/",
        {"name": "Tuesday Pegs Open", "starts_on": DAY.isoformat(), "club": club.pk},
        format="json",
    )
    assert hosted.status_code == 201 and hosted.json()["weekend"]["club"] == club.pk


def test_a_namesake_said_to_be_someone_new_never_takes_a_withdrawn_players_entry(main, dora):
    """Vera withdrew. Eve asks under the same name with her own address; the director, told
    the name may be Vera, says it is someone new. Entering the new player must not restore
    Vera's withdrawn entry with Eve's address on it (its link would be e-mailed to Eve)."""
    from tournaments.services.withdrawals import entry_withdraw

    vera_entry = entry_register(
        event=main,
        registration=Registration(name="Vera Vale", acc_number="V-100", email="vera@example.org"),
        user=dora,
    )
    entry_withdraw(entry=vera_entry, user=dora)
    request_id, _, choice_id = _ask(main, name="Vera Vale", email="eve@example.org")
    approved = client_for(dora).post(
        f"/api/v1/registrations/{request_id}/approve/", {"new_player": True}, format="json"
    )
    assert approved.status_code == 200, approved.json()
    vera_entry.refresh_from_db()
    assert vera_entry.status == Entry.Status.WITHDRAWN
    assert vera_entry.email == "vera@example.org"
    eves = RegistrationChoice.objects.get(pk=choice_id).entry
    assert eves.pk != vera_entry.pk and eves.player_id != vera_entry.player_id
    assert eves.email == "eve@example.org"


def test_one_client_cannot_make_the_site_mail_anyone_again_and_again(
    main, django_capture_on_commit_callbacks
):
    """Any account may make a weekend and open its registration; anyone may then send a
    request naming any e-mail address, and each request e-mails that address in the site's
    name with words the sender chose (the weekend's name, the request's name). One client
    address may send only a few requests in an hour, by the API or the page."""
    from django.conf import settings
    from django.core import mail
    from django.test import Client

    from tournaments.models import RegistrationRequest

    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["anon_write"]
    allowed = int(rate.split("/")[0])
    body = {"name": "Pay your fee at evil.example", "email": "victim@example.org"}
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(allowed):
            _ask(main, **body)
    assert len(mail.outbox) == allowed
    before = state()
    with django_capture_on_commit_callbacks(execute=True):
        refused = client_for().post(
            f"/api/v1/weekends/{main.weekend_id}/registrations/",
            {**body, "events": [main.pk]},
            format="json",
        )
        page = Client().post(
            f"/weekends/{main.weekend_id}/register/", {**body, "events": [main.pk]}
        )
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert page.status_code == 429
    assert int(page["Retry-After"]) > 0
    assert state() == before and len(mail.outbox) == allowed
    assert RegistrationRequest.objects.count() == allowed
