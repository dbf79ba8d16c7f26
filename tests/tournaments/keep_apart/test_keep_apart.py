"""Keep-apart pairs: honoured by the pairing for the whole qualifying round when the field
allows it; when it cannot, the game is paired by the meeting rules alone and the result names
the pair that meets. Added and removed by the director, in the event's history."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import UserFactory
from tournaments.core.keep_apart import pair_game_keeping_apart
from tournaments.core.pairing import GamePairing
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Entry, Job, KeepApart, Seat
from tournaments.services.keep_apart import keep_apart_add

PAIRS = [(1, 2), (3, 4), (5, 6)]


def _met(history):
    return {frozenset(t) for game in history for t in game.tables}


@pytest.mark.parametrize("seed", range(25))
def test_pairs_never_meet_over_a_whole_round_when_the_field_allows(seed):
    field, history = list(range(1, 13)), []
    for game in range(8):
        kept = pair_game_keeping_apart(
            keep_apart=PAIRS, active=field, history=history, games_remaining=8 - game,
            seed=seed,
        )  # fmt: skip
        assert kept.honoured and not kept.met
        history.append(kept.pairing)
    assert not _met(history) & {frozenset(p) for p in PAIRS}


def test_when_the_field_cannot_keep_them_apart_the_pair_that_meets_is_named():
    # Two players, one game: they must meet.
    kept = pair_game_keeping_apart(
        keep_apart=[(7, 8)], active=[7, 8], history=[], games_remaining=1, seed=1
    )
    assert not kept.honoured and kept.met == ((7, 8),)
    # A round robin of four: every pair meets by the end, so the pair cannot stay apart.
    field, history, met = [1, 2, 3, 4], [], []
    for game in range(3):
        kept = pair_game_keeping_apart(
            keep_apart=[(1, 2)], active=field, history=history, games_remaining=3 - game, seed=3
        )
        history.append(kept.pairing)
        met.extend(kept.met)
    assert met == [(1, 2)] and frozenset((1, 2)) in _met(history)


def test_a_pair_not_both_in_the_field_changes_nothing():
    plain = pair_game_keeping_apart(
        keep_apart=[], active=[1, 2, 3, 4], history=[GamePairing(((1, 2), (3, 4)))],
        games_remaining=2, seed=9,
    )  # fmt: skip
    kept = pair_game_keeping_apart(
        keep_apart=[(1, 99)], active=[1, 2, 3, 4], history=[GamePairing(((1, 2), (3, 4)))],
        games_remaining=2, seed=9,
    )  # fmt: skip
    assert kept.pairing == plain.pairing and kept.honoured


@pytest.mark.django_db
def test_the_director_keeps_a_couple_apart_and_the_next_game_honours_it(
    event_in_play, django_capture_on_commit_callbacks
):
    from tournaments.models import Game
    from tournaments.services.pairings import game_pairings_request
    from tournaments.services.results import game_close

    event = event_in_play(10, qualifying_games=4)
    entries = list(Entry.objects.filter(event=event).order_by("pk"))
    game_one = {frozenset(s) for s in _tables(event, 1)}
    a, b = next(
        (x.pk, y.pk)
        for x in entries
        for y in entries
        if x.pk < y.pk and frozenset((x.pk, y.pk)) not in game_one
    )
    page = Client()
    page.force_login(event.director)
    answer = page.post(
        f"/events/{event.pk}/keep-apart/", {"entry_a": b, "entry_b": a, "note": "couple"}
    )
    assert answer.status_code == 302
    assert KeepApart.objects.filter(event=event, entry_a_id=a, entry_b_id=b).exists()
    assert AuditEntry.objects.filter(event=event, action="keep_apart_add").count() == 1
    assert "couple" in page.get(f"/events/{event.pk}/manage/").content.decode()
    game_close(game=Game.objects.get(event=event, number=1), user=event.director)
    with django_capture_on_commit_callbacks(execute=True):
        game_pairings_request(event=event, number=2, user=event.director)
    assert frozenset((a, b)) not in {frozenset(s) for s in _tables(event, 2)}
    job = Job.objects.filter(kind="pairings").order_by("-pk").first()
    assert job.result["keep_apart"] == "All 1 keep-apart pairs are kept apart."


@pytest.mark.django_db
def test_refusals_say_why_and_another_director_cannot(event_in_play):
    event = event_in_play(4, qualifying_games=2)
    first = Entry.objects.filter(event=event).first()
    with pytest.raises(ServiceError) as same:
        keep_apart_add(event=event, user=event.director, entry_ids=(first.pk, first.pk))
    assert same.value.code == "same_player"
    other = event_in_play(4, qualifying_games=2)
    stranger = Entry.objects.filter(event=other).first()
    with pytest.raises(ServiceError) as elsewhere:
        keep_apart_add(event=event, user=event.director, entry_ids=(first.pk, stranger.pk))
    assert elsewhere.value.code == "not_entered"
    page = Client()
    page.force_login(UserFactory())
    answer = page.post(
        f"/events/{event.pk}/keep-apart/", {"entry_a": first.pk, "entry_b": first.pk + 1}
    )
    assert answer.status_code == 403 and not KeepApart.objects.exists()


def _tables(event, number):
    seats = Seat.objects.filter(game__event=event, game__number=number, table__isnull=False)
    by_table: dict[int, list[int]] = {}
    for seat in seats:
        by_table.setdefault(seat.table_id, []).append(seat.entry_id)
    return list(by_table.values())
