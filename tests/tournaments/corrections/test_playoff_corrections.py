"""A director corrects or voids a playoff game and stops or restarts the no-show clock; the
match and the bracket are derived again, and a change that a later round's games depend on is
refused as a whole."""

import pytest

from tests.helpers import client_for
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Event, Match, MatchGame, MatchLine, Playoff
from tournaments.services.playoffs import playoff_build
from tournaments.services.playoffs_corrections import (
    match_clock_start,
    match_clock_stop,
    match_game_correct,
    match_game_void,
)
from tournaments.services.playoffs_matches import match_game_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def semi_decided(qualified_event):
    """12 players, 3 qualifiers: seed 1 has a bye to the final; the semi (seeds 2 v 3, best of
    3) is won 2-0 by seed 2, who now waits in the final."""
    event = qualified_event(12, 5, playoff_best_of={"every": 3})
    playoff_build(event_id=event.pk)
    playoff = Playoff.objects.get(event=event)
    semi = Match.objects.get(playoff=playoff, round=1, slot=1)
    for _ in range(2):
        _play(semi, semi.entry_a, semi.entry_b)
    semi.refresh_from_db()
    assert semi.winner_id == semi.entry_a_id
    return event, semi, Match.objects.get(playoff=playoff, round=2)


def _play(match, winner, loser, spread=12):
    match_game_report(match=match, entry=winner, won=True, spread=spread)
    match_game_report(match=match, entry=loser, won=False, spread=spread)


def _game(match, number):
    return MatchGame.objects.get(match=match, number=number)


def test_correcting_a_decided_game_moves_the_bracket(semi_decided):
    event, semi, final = semi_decided
    a, b = semi.entry_a, semi.entry_b
    match_game_correct(
        match_game=_game(semi, 2), winner_entry=b, spread=20, reason="misread", user=event.director
    )
    semi.refresh_from_db()
    final.refresh_from_db()
    assert (semi.status, semi.winner_id) == ("playing", None)  # 1-1 now: a third game
    assert (final.entry_b_id, final.status) == (None, "waiting")
    _play(semi, b, a)
    semi.refresh_from_db()
    final.refresh_from_db()
    assert semi.winner_id == b.pk and final.entry_b_id == b.pk and final.status == "ready"
    row = AuditEntry.objects.get(action="match_game_correct")
    assert row.before["winner"] == a.pk and row.after["winner"] == b.pk
    old = MatchLine.objects.filter(match_game__match=semi, match_game__number=2, current=False)
    assert old.filter(kind="verified").count() == 2  # the old result is kept


def test_a_change_that_a_later_match_depends_on_is_refused(semi_decided):
    event, semi, final = semi_decided
    _play(final, final.entry_a, final.entry_b)
    game = _game(semi, 2)
    with pytest.raises(ServiceError) as refused:
        match_game_void(match_game=game, reason="wrong", user=event.director)
    assert refused.value.code == "depends"
    assert (
        "final, match 1" in refused.value.message and "already has games" in refused.value.message
    )
    game.refresh_from_db()
    semi.refresh_from_db()
    assert game.status == "verified" and semi.winner_id == semi.entry_a_id
    assert not AuditEntry.objects.filter(action="match_game_void").exists()
    # Void the final's game first; then the semi can change.
    match_game_void(match_game=_game(final, 1), reason="played too early", user=event.director)
    match_game_void(match_game=game, reason="wrong", user=event.director)
    semi.refresh_from_db()
    final.refresh_from_db()
    assert semi.status == "playing" and final.entry_b_id is None


def test_a_correction_that_leaves_games_after_the_decision_is_refused(qualified_event):
    event = qualified_event(12, 5, playoff_best_of={"every": 5})
    playoff_build(event_id=event.pk)
    semi = Match.objects.get(playoff__event=event, round=1, slot=1)
    a, b = semi.entry_a, semi.entry_b
    for winner, loser in ((a, b), (b, a), (a, b), (a, b)):  # a wins 3-1 in game 4
        _play(semi, winner, loser)
    with pytest.raises(ServiceError) as refused:
        match_game_correct(
            match_game=_game(semi, 2), winner_entry=a, spread=9, reason="x", user=event.director
        )
    assert refused.value.code == "games_after_decision"
    assert _game(semi, 2).winner_id == b.pk


def test_the_final_corrected_changes_the_champion_and_voided_reopens_the_event(semi_decided):
    event, semi, final = semi_decided
    for _ in range(2):
        _play(final, final.entry_a, final.entry_b)
    event.refresh_from_db()
    assert event.stage == Event.Stage.FINISHED
    match_game_void(match_game=_game(final, 2), reason="wrong table", user=event.director)
    event.refresh_from_db()
    final.refresh_from_db()
    assert event.stage == Event.Stage.PLAYOFFS and final.winner_id is None
    results = client_for(event.director).get(f"/api/v1/events/{event.pk}/results/").json()
    assert results["complete"] is False and results["winner"] is None
    _play(final, final.entry_b, final.entry_a)
    _play(final, final.entry_b, final.entry_a)
    final.refresh_from_db()
    event.refresh_from_db()
    assert final.winner_id == final.entry_b_id and event.stage == Event.Stage.FINISHED
    results = client_for(event.director).get(f"/api/v1/events/{event.pk}/results/").json()
    assert results["winner"]["entry_id"] == final.entry_b_id
    assert [r["place"] for r in results["rows"]].count("1") == 1


def test_the_clock_stops_and_starts_again(qualified_event):
    event = qualified_event(12, 5)
    playoff_build(event_id=event.pk)
    semi = Match.objects.get(playoff__event=event, round=1, slot=1)
    match_clock_start(match=semi, absent=semi.entry_b, user=event.director)
    match_clock_stop(match=semi, user=event.director)
    semi.refresh_from_db()
    assert semi.clock_started_at is None
    with pytest.raises(ServiceError, match="not running"):
        match_clock_stop(match=semi, user=event.director)
    match_clock_start(match=semi, absent=semi.entry_b, user=event.director)
    semi.refresh_from_db()
    assert semi.clock_started_at is not None
    kinds = list(AuditEntry.objects.order_by("id").values_list("action", flat=True))
    assert kinds[-3:] == ["match_clock_start", "match_clock_stop", "match_clock_start"]


def test_the_api_corrects_voids_and_stops_the_clock(semi_decided):
    event, semi, final = semi_decided
    api = client_for(event.director)
    base = f"/api/v1/events/{event.pk}/matches/{semi.pk}/"
    detail = api.get(base).json()
    assert [g["status"] for g in detail["games"]] == ["verified", "verified"]
    answer = api.post(
        base + "games/2/correct/",
        {"winner": semi.entry_b_id, "margin": 15, "reason": "misread"},
        format="json",
    )
    assert answer.status_code == 200 and answer.json()["status"] == "playing"
    answer = api.post(base + "games/2/void/", {"reason": "misdealt"}, format="json")
    assert answer.status_code == 200
    assert [g["status"] for g in answer.json()["games"]] == ["verified", "void"]
    other = client_for_another_director(event)
    assert other.post(base + "games/1/void/", {"reason": "x"}, format="json").status_code == 403
    clock = base + "clock/"
    assert api.post(clock, {"absent": semi.entry_b_id}, format="json").status_code == 200
    stopped = api.delete(clock)
    assert stopped.status_code == 200 and stopped.json()["clock_started_at"] is None


def client_for_another_director(event):
    from tests.factories import EventFactory, UserFactory

    stranger = UserFactory()
    EventFactory(director=stranger)
    return client_for(stranger)
