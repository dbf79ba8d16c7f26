"""Keep apart at registration (issue 27, item 5): a player asks on the public form not to meet
someone; once entered, the wish becomes a pair in each event where it names exactly one
entrant, now or when that person is entered later; two entrants of one name are never guessed
between: the director chooses with one click, and a pair the director removes stays removed."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.test import Client

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tournaments.core.keep_apart import Entrant, wish_match
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Entry, KeepApart, RegistrationRequest
from tournaments.services.entries import Registration, entry_register
from tournaments.services.keep_apart import keep_apart_remove
from tournaments.services.registrations import registration_approve, registration_request_create
from tournaments.services.weekends import (
    weekend_create,
    weekend_event_add,
    weekend_registration_set,
)

DAY = date.today() + timedelta(days=30)
FIELD = [
    Entrant(1, "Ann Able", "A1"),
    Entrant(2, "Bob Baker", "B2"),
    Entrant(3, "Bob Baker", "B3"),
    Entrant(4, "Cy Cole", ""),
]


def test_a_wish_is_settled_only_when_it_can_mean_one_entrant():
    one = wish_match(name="  cy   COLE ", acc_number="", entrants=FIELD, wisher=1)
    assert one.sure == 4 and one.candidates == (4,)
    two = wish_match(name="Bob Baker", acc_number="", entrants=FIELD, wisher=1)
    assert two.sure is None and two.candidates == (2, 3)
    by_acc = wish_match(name="Bob Baker", acc_number="b3", entrants=FIELD, wisher=1)
    assert by_acc.sure == 3 and by_acc.candidates == (3, 2)
    # An ACC number nobody holds: the one Cy Cole is shown, not taken.
    stray = wish_match(name="Cy Cole", acc_number="Z9", entrants=FIELD, wisher=1)
    assert stray.sure is None and stray.candidates == (4,)
    assert wish_match(name="Ann Able", acc_number="", entrants=FIELD, wisher=1).candidates == ()
    assert wish_match(name="Dee Doe", acc_number="", entrants=FIELD, wisher=1).sure is None


@pytest.fixture
def director(db):
    return UserFactory(username="dora")


@pytest.fixture
def main(director):
    weekend = weekend_create(user=director, name="Fall Classic", starts_on=DAY)
    event = EventFactory(director=director, name="Fall Main")
    weekend_event_add(weekend=weekend, event=event, user=director)
    weekend_registration_set(weekend=weekend, user=director, open=True)
    event.refresh_from_db()
    return event


def _ask(event, name, **wish) -> RegistrationRequest:
    return registration_request_create(
        weekend=event.weekend, name=name, event_ids=[event.pk], **wish
    )


def _entered(event, name, acc="") -> Entry:
    return EntryFactory(event=event, player=PlayerFactory(name=name, acc_number=acc))


def _page(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _pairs(event) -> set[frozenset[str]]:
    pairs = KeepApart.objects.filter(event=event).select_related(
        "entry_a__player", "entry_b__player"
    )
    return {frozenset((p.entry_a.name, p.entry_b.name)) for p in pairs}


@pytest.mark.django_db
def test_the_public_form_takes_the_wish_and_keeps_what_was_typed_when_refused(main, director):
    url = f"/weekends/{main.weekend_id}/register/"
    form = Client().get(url).content.decode()
    assert "Keep me apart from (optional)" in form and 'name="keep_apart_acc"' in form
    refused = Client().post(url, {"name": "Ann Able", "keep_apart_acc": "B2", "events": [main.pk]})
    page = refused.content.decode()
    assert refused.status_code == 400 and "Write the name of the person" in page
    assert 'value="Ann Able"' in page and 'value="B2"' in page
    assert not RegistrationRequest.objects.exists()
    own = Client().post(url, {"name": "Ann Able", "keep_apart_name": "ann  able",
                              "events": [main.pk]})  # fmt: skip
    assert own.status_code == 400 and "That is you" in own.content.decode()
    sent = Client().post(
        url, {"name": "Ann Able", "keep_apart_name": "Bob Baker", "events": [main.pk]}
    )
    assert sent.status_code == 302
    request = RegistrationRequest.objects.get()
    assert (request.keep_apart_name, request.keep_apart_acc) == ("Bob Baker", "")
    mine = Client().get(sent["Location"]).content.decode()
    assert "You asked to be kept apart from <strong>Bob Baker</strong>" in mine
    manage = _page(director).get(f"/weekends/{main.weekend_id}/manage/").content.decode()
    assert "Keep apart from:</strong> Bob Baker" in manage and "On approval, the pair" in manage
    asked = AuditEntry.objects.get(event=main, action="registration_request_create")
    assert asked.after["keep_apart"] == {"keep_apart_name": "Bob Baker", "keep_apart_acc": ""}


@pytest.mark.django_db
def test_on_approval_the_one_entrant_named_is_kept_apart_and_the_history_says_why(main, director):
    bob = _entered(main, "Bob Baker")
    request = _ask(main, "Ann Able", keep_apart_name="bob baker")
    registration_approve(request=request, user=director, new_player=True)
    assert _pairs(main) == {frozenset(("Ann Able", "Bob Baker"))}
    choice = request.choices.get()
    assert choice.keep_apart.entry_b_id == max(bob.pk, choice.entry_id)
    row = AuditEntry.objects.get(event=main, action="keep_apart_add")
    assert row.actor_id == director.pk and "Ann Able's wish (registration request" in row.summary
    manage = _page(director).get(f"/weekends/{main.weekend_id}/manage/").content.decode()
    assert "kept apart from Bob Baker" in manage


@pytest.mark.django_db
def test_a_person_entered_later_is_kept_apart_when_they_are_entered(main, director):
    request = _ask(main, "Ann Able", keep_apart_name="Cy Cole")
    registration_approve(request=request, user=director, new_player=True)
    assert not KeepApart.objects.exists()
    page = _page(director).get(f"/events/{main.pk}/manage/").content.decode()
    assert "asked to be kept apart from <strong>Cy Cole</strong>" in page
    assert "Nobody of that name" in page
    entry_register(event=main, registration=Registration(name="Cy Cole", new_player=True),
                   user=director)  # fmt: skip
    assert _pairs(main) == {frozenset(("Ann Able", "Cy Cole"))}
    assert (
        "Nobody of that name"
        not in _page(director).get(f"/events/{main.pk}/manage/").content.decode()
    )
    # Removed by the director, the pair is not made again by the next entry.
    keep_apart_remove(event=main, user=director, pair_id=KeepApart.objects.get().pk)
    entry_register(event=main, registration=Registration(name="Di Dunn", new_player=True),
                   user=director)  # fmt: skip
    assert not KeepApart.objects.exists()
    manage = _page(director).get(f"/weekends/{main.weekend_id}/manage/").content.decode()
    assert "the keep-apart pair was removed" in manage


@pytest.mark.django_db
def test_two_players_of_one_name_are_never_guessed_between_the_director_chooses(main, director):
    first, second = _entered(main, "Bob Baker", "B2"), _entered(main, "Bob Baker", "B3")
    request = _ask(main, "Ann Able", keep_apart_name="Bob Baker")
    registration_approve(request=request, user=director, new_player=True)
    assert not KeepApart.objects.exists()
    page = _page(director).get(f"/events/{main.pk}/manage/").content.decode()
    assert "More than one player here may be the one meant" in page
    assert (
        "Keep apart from Bob Baker · ACC B2" in page
        and "Keep apart from Bob Baker · ACC B3" in page
    )
    choice = request.choices.get()
    # Another wish's id, or a pair without the player who asked, is refused with the way on.
    clicked = _page(director).post(
        f"/events/{main.pk}/keep-apart/",
        {"entry_a": first.pk, "entry_b": second.pk, "wish": choice.pk},
        follow=True,
    )
    assert "Ann Able asked to be kept apart: choose them" in clicked.content.decode()
    assert not KeepApart.objects.exists()
    _page(director).post(
        f"/events/{main.pk}/keep-apart/",
        {"entry_a": choice.entry_id, "entry_b": second.pk, "wish": choice.pk},
    )
    pair = KeepApart.objects.get()
    assert {pair.entry_a_id, pair.entry_b_id} == {choice.entry_id, second.pk}
    choice.refresh_from_db()
    assert choice.keep_apart == pair and choice.keep_apart_made_at is not None
    assert (
        "More than one player"
        not in _page(director).get(f"/events/{main.pk}/manage/").content.decode()
    )


@pytest.mark.django_db
def test_an_acc_number_picks_the_one_of_two_same_named_players(main, director):
    _entered(main, "Bob Baker", "B2")
    second = _entered(main, "Bob Baker", "B3")
    request = _ask(main, "Ann Able", keep_apart_name="Bob Baker", keep_apart_acc="B3")
    registration_approve(request=request, user=director, new_player=True)
    pair = KeepApart.objects.get()
    assert second.pk in (pair.entry_a_id, pair.entry_b_id)


@pytest.mark.django_db
def test_the_wish_is_refused_without_a_name_or_as_ones_own(main):
    with pytest.raises(ServiceError) as nameless:
        _ask(main, "Ann Able", keep_apart_acc="B2")
    assert nameless.value.field == "keep_apart_name" and "too" in nameless.value.message
    with pytest.raises(ServiceError) as own:
        _ask(main, "Ann Able", acc_number="A1", keep_apart_name="Someone", keep_apart_acc="A1")
    assert own.value.code == "same_player"
    assert not RegistrationRequest.objects.exists()


@pytest.mark.django_db
def test_a_couple_naming_each_other_in_two_requests_make_one_pair(main, director):
    ann = _ask(main, "Ann Able", keep_apart_name="Bob Baker")
    bob = _ask(main, "Bob Baker", keep_apart_name="Ann Able")
    registration_approve(request=ann, user=director, new_player=True)
    assert not KeepApart.objects.exists()  # Bob is not entered yet
    registration_approve(request=bob, user=director, new_player=True)
    pair = KeepApart.objects.get()
    assert _pairs(main) == {frozenset(("Ann Able", "Bob Baker"))}
    assert {c.keep_apart_id for c in (ann.choices.get(), bob.choices.get())} == {pair.pk}
    assert (
        not _page(director)
        .get(f"/events/{main.pk}/manage/")
        .content.decode()
        .count("asked to be kept apart")
    )


@pytest.mark.django_db
def test_a_withdrawn_player_is_not_matched_until_their_withdrawal_is_undone(main, director):
    from tournaments.services.withdrawals import entry_rejoin, entry_withdraw

    bob = _entered(main, "Bob Baker")
    entry_withdraw(entry=bob, user=director)
    request = _ask(main, "Ann Able", keep_apart_name="Bob Baker")
    registration_approve(request=request, user=director, new_player=True)
    assert not KeepApart.objects.exists()
    entry_rejoin(entry=bob, user=director)
    assert _pairs(main) == {frozenset(("Ann Able", "Bob Baker"))}
