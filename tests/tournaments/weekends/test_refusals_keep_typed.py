"""Every form of the accounts, weekends, registration, invitations and teams pages, refused: the
answer says why (next to the field and at the top), keeps what was typed, and nothing was
written (no row, no history, no e-mail). A state that changed meanwhile (a request decided, the
registration closed) is a 409 that says what happened."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import caches
from django.test import Client

from tests.factories import EventFactory, PlayerFactory, UserFactory
from tournaments.models import (
    AuditEntry,
    Club,
    ClubRole,
    Entry,
    Event,
    Invitation,
    RegistrationChoice,
    RegistrationRequest,
    Weekend,
)
from tournaments.services.registrations import registration_decline, registration_request_create
from tournaments.services.weekends import (
    weekend_create,
    weekend_event_add,
    weekend_registration_set,
)

pytestmark = pytest.mark.django_db
DAY = date.today() + timedelta(days=30)
LONG_NOTE = "The Main is for members of the Pegtown club only this year. " * 10  # 600 characters


@pytest.fixture(autouse=True)
def fresh_limits():
    """allauth's limits and the registration limit are counted in caches that outlive a test."""
    caches["default"].clear()
    caches["throttle"].clear()


@dataclass
class World:
    director: object
    weekend: Weekend
    main: Event
    request: RegistrationRequest
    doubles: Event
    club: Club

    def signed_in(self) -> Client:
        client = Client()
        client.force_login(self.director)
        return client


@pytest.fixture
def world() -> World:
    director = UserFactory(username="dora")
    weekend = weekend_create(user=director, name="Fall Classic", starts_on=DAY)
    main = EventFactory(director=director, name="Fall Main")
    weekend_event_add(weekend=weekend, event=main, user=director)
    weekend_registration_set(weekend=weekend, user=director, open=True)
    request = registration_request_create(
        weekend=weekend, name="Ann Newcomer", event_ids=[main.pk], email="ann@example.org"
    )
    club = Club.objects.create(name="Pegtown Cribbage Club")
    ClubRole.objects.create(club=club, user=director)
    doubles = EventFactory(director=director, name="Fall Doubles", style="doubles")
    return World(director, weekend, main, request, doubles, club)


@dataclass
class Refusal:
    """One form sent with a mistake: ``send`` posts it (after ``before``, which sets the state
    the refusal is about) and returns the answer."""

    send: object
    status: int
    error: str
    typed: list[str] = field(default_factory=list)
    before: object = None
    summary: bool = True  # the "Nothing was saved" summary at the top


def _weekend_new(w):
    data = {"name": "Spring Fling 2027", "starts_on": "2027-31-31", "venue": "Legion Hall 42"}
    return w.signed_in().post("/weekends/new/", data)


def _weekend_new_days(w):
    data = {"name": "Spring Fling 2027", "starts_on": "2027-05-08", "ends_on": "2027-05-01"}
    return w.signed_in().post("/weekends/new/", data)


def _weekend_details(w):
    data = {"details-name": "", "details-starts_on": DAY, "details-venue": "The Elks Lodge"}
    return w.signed_in().post(f"/weekends/{w.weekend.pk}/manage/", data)


def _weekend_event(w):
    return w.signed_in().post(f"/weekends/{w.weekend.pk}/events/", {"event": "987654"})


def _decide(step, note):
    def send(w):
        url = f"/weekends/{w.weekend.pk}/requests/{w.request.pk}/{step}/"
        return w.signed_in().post(url, {"note": note})

    return send


def _decided(w):
    registration_decline(request=w.request, user=w.director, reason="Members only.")


def _known_name(w):
    PlayerFactory(name="Ann Newcomer", acc_number="A555")


def _approve(w):
    url = f"/weekends/{w.weekend.pk}/requests/{w.request.pk}/approve/"
    return w.signed_in().post(url, {})


def _capacity(value):
    def send(w):
        url = f"/weekends/{w.weekend.pk}/events/{w.main.pk}/capacity/"
        return w.signed_in().post(url, {"capacity": value})

    return send


PUBLIC = {
    "name": "",
    "acc_number": "A12345",
    "email": "margaret-at-home",
    "phone": "555-0199",
    "partner_name": "Bob Partner",
}


def _register(w):
    return Client().post(f"/weekends/{w.weekend.pk}/register/", PUBLIC)


def _closed(w):
    weekend_registration_set(weekend=w.weekend, user=w.director, open=False)


def _register_late(w):
    data = {"name": "Late Larry", "phone": "555-0142", "events": [w.main.pk]}
    return Client().post(f"/weekends/{w.weekend.pk}/register/", data)


def _change(w):
    data = {"name": "Ann Newcomer", "acc_number": "A777", "email": "ann-at-home"}
    return Client().post(f"/registration/{w.request.token}/change/", data)


def _change_decided(w):
    data = {"name": "Ann Newcomer", "acc_number": "A777", "events": [w.main.pk]}
    return Client().post(f"/registration/{w.request.token}/change/", data)


def _event_invitation(w):
    data = {"email": "judy-at-home", "role": "judge"}
    return w.signed_in().post(f"/events/{w.main.pk}/invitations/", data)


def _club_invitation(w):
    return w.signed_in().post(f"/clubs/{w.club.pk}/invitations/", {"email": "bob-at-home"})


def _team(w):
    data = {"name_1": "Ann Alpha", "acc_number_1": "A111", "name_2": "", "acc_number_2": "B222"}
    return w.signed_in().post(f"/events/{w.doubles.pk}/teams/add/", data)


def _signup(w):
    data = {
        "username": "margaret",
        "email": "margaret@example.org",
        "password1": "pegging-out-at-121",
        "password2": "pegging-out-at-120",
    }
    return Client().post("/accounts/signup/", data)


def _reset(w):
    return Client().post("/accounts/password/reset/", {"email": "dora-at-home"})


def _login(w):
    return Client().post("/accounts/login/", {"username": "dora", "password": "wrong one"})


REFUSALS = {
    "weekend-new: a date that is not one": Refusal(
        _weekend_new,
        400,
        "Enter a valid date",
        ["Spring Fling 2027", "2027-31-31", "Legion Hall 42"],
    ),
    "weekend-new: the last day before the first": Refusal(
        _weekend_new_days, 400, "is before the first", ["Spring Fling 2027", "2027-05-01"]
    ),
    "weekend details: no name": Refusal(
        _weekend_details, 400, "This field is required", ["The Elks Lodge"]
    ),
    "weekend: add an event not yours": Refusal(_weekend_event, 400, "987654 is not one of"),
    "decline: no reason": Refusal(_decide("decline", "   "), 400, "Write the reason"),
    "decline: a reason too long": Refusal(
        _decide("decline", LONG_NOTE), 400, "Keep it under 500 characters", [LONG_NOTE]
    ),
    "ask for a change: too long": Refusal(
        _decide("change", LONG_NOTE), 400, "Keep it under 500 characters", [LONG_NOTE]
    ),
    "decline: decided meanwhile": Refusal(
        _decide("decline", "Typed while another director declined it"),
        409,
        "already declined",
        ["Typed while another director declined it", 'href="#request-'],
        before=_decided,
    ),
    "approve: the name may be a known player": Refusal(
        _approve, 400, "may be a player already known", ["Choose below"], before=_known_name
    ),
    "capacity: a word": Refusal(_capacity("twelve"), 400, "whole number", ['value="twelve"']),
    "capacity: below zero": Refusal(_capacity("-3"), 400, "whole number", ['value="-3"']),
    "public registration: no name, no event, a bad e-mail": Refusal(
        _register,
        400,
        "Write your name",
        ["A12345", "margaret-at-home", "555-0199", "Bob Partner", "Tick at least one event"],
    ),
    "public registration: closed before it arrived": Refusal(
        _register_late,
        409,
        "registration closed before it arrived",
        ["Late Larry", "555-0142"],
        before=_closed,
        summary=False,
    ),
    "the player's change: a bad e-mail": Refusal(
        _change, 400, "Enter a valid email address", ["A777", "ann-at-home"]
    ),
    "the player's change: decided meanwhile": Refusal(
        _change_decided, 409, "already declined", before=_decided
    ),
    "event invitation: a bad e-mail": Refusal(
        _event_invitation, 400, "Enter a valid email address", ['value="judy-at-home"']
    ),
    "club invitation: a bad e-mail": Refusal(
        _club_invitation, 400, "Enter a valid email address", ['value="bob-at-home"']
    ),
    "team: no second partner": Refusal(
        _team, 400, "This field is required", ['value="Ann Alpha"', 'value="B222"']
    ),
    # allauth's and Django's account pages answer a refused form 200, as those libraries do.
    "sign-up: the passwords differ": Refusal(
        _signup, 200, "You must type the same password", ['value="margaret"', "margaret@example"]
    ),
    "password reset: not an address": Refusal(
        _reset, 200, "Enter a valid email address", ['value="dora-at-home"']
    ),
    "sign-in: a wrong password": Refusal(
        _login, 200, "Please enter a correct", ['value="dora"'], summary=False
    ),
}


def _written() -> dict:
    """Everything these forms could write."""
    return {
        "history": AuditEntry.objects.count(),
        "weekends": list(Weekend.objects.order_by("pk").values_list()),
        "capacities": list(Event.objects.order_by("pk").values_list("pk", "capacity", "weekend")),
        "requests": list(RegistrationRequest.objects.order_by("pk").values_list()),
        "choices": list(RegistrationChoice.objects.order_by("pk").values_list()),
        "entries": Entry.objects.count(),
        "invitations": Invitation.objects.count(),
        "accounts": get_user_model().objects.count(),
        "mail": len(mail.outbox),
    }


@pytest.mark.parametrize("case", REFUSALS.values(), ids=REFUSALS.keys())
def test_a_refused_form_says_why_keeps_what_was_typed_and_writes_nothing(world, case):
    if case.before:
        case.before(world)
    mail.outbox.clear()
    before = _written()
    answer = case.send(world)
    html = answer.content.decode()
    assert answer.status_code == case.status, html[:2000]
    assert case.error in html
    for typed in case.typed:
        assert typed in html, typed
    if case.summary:
        assert "Nothing was saved." in html and 'role="alert"' in html
    assert _written() == before


def test_a_decision_refused_puts_the_typed_note_back_in_its_own_box_only(world):
    """The page has a decline and a change box per request: the typed text goes back into the
    refused one, with its error beside it, and the other boxes stay empty."""
    other = registration_request_create(weekend=world.weekend, name="Bo", event_ids=[world.main.pk])
    url = f"/weekends/{world.weekend.pk}/requests/{world.request.pk}/change/"
    html = world.signed_in().post(url, {"note": LONG_NOTE}).content.decode()
    pk = world.request.pk
    assert f'aria-describedby="change-{pk}-error">{LONG_NOTE}</textarea>' in html
    assert f'<p class="error" id="change-{pk}-error">' in html
    assert f'id="decline-{pk}" rows="2"></textarea>' in html
    assert f'id="change-{other.pk}" rows="2"></textarea>' in html
