"""Playing the bracket: reports verify games, matches decide themselves, winners move on,
disagreements are flagged and corrected, and the no-show clock forfeits games."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments.errors import ServiceError
from tournaments.models import Event, Match, MatchGame, MatchLine, Playoff
from tournaments.services.playoffs import playoff_build
from tournaments.services.playoffs_corrections import match_clock_start, match_game_correct
from tournaments.services.playoffs_matches import (
    match_forfeits_apply,
    match_game_report,
    playoff_forfeits_apply_all,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def bracket(qualified_event):
    def make(**settings):
        event = qualified_event(12, 5, **settings)
        playoff_build(event_id=event.pk)
        return event, Playoff.objects.get(event=event)

    return make


def _play(match, winner, loser, spread=12):
    match_game_report(match=match, entry=winner, won=True, spread=spread)
    return match_game_report(match=match, entry=loser, won=False, spread=spread)


def test_reports_decide_the_match_and_the_final_crowns_the_champion(bracket):
    event, playoff = bracket(playoff_best_of={"every": 3})
    semi = Match.objects.get(playoff=playoff, round=1, slot=1)
    a, b = semi.entry_a, semi.entry_b
    match_game_report(match=semi, entry=a, won=True, spread=40)
    game = MatchGame.objects.get(match=semi)
    assert (game.number, game.status, game.first_dealer_id) == (1, "open", None)
    match_game_report(match=semi, entry=b, won=False, spread=40)
    game.refresh_from_db()
    assert (game.status, game.winner_id) == ("verified", a.pk)
    verified = MatchLine.objects.filter(match_game=game, kind="verified", current=True)
    assert sorted((v.game_points, v.plus, v.minus) for v in verified) == [(0, 0, 40), (3, 40, 0)]
    semi.refresh_from_db()
    assert semi.status == "playing" and semi.winner_id is None
    _play(semi, b, a)
    _play(semi, b, a)
    semi.refresh_from_db()
    assert (semi.status, semi.winner_id) == ("decided", b.pk)
    final = Match.objects.get(playoff=playoff, round=2)
    assert (final.entry_b_id, final.seed_b, final.status) == (b.pk, 3, "ready")
    with pytest.raises(ServiceError, match="already decided"):
        match_game_report(match=semi, entry=a, won=True, spread=5)
    event.refresh_from_db()
    assert event.stage == Event.Stage.PLAYOFFS
    _play(final, final.entry_a, final.entry_b)
    _play(final, final.entry_a, final.entry_b)
    final.refresh_from_db()
    event.refresh_from_db()
    assert (final.winner_id, event.stage) == (final.entry_a_id, Event.Stage.FINISHED)


def test_impossible_margin_and_outsiders_are_refused(bracket):
    _, playoff = bracket()
    semi = Match.objects.get(playoff=playoff, round=1, slot=1)
    with pytest.raises(ServiceError) as refused:
        match_game_report(match=semi, entry=semi.entry_a, won=True, spread=122)
    assert refused.value.field == "margin"
    final = Match.objects.get(playoff=playoff, round=2)
    with pytest.raises(ServiceError, match="waiting"):
        match_game_report(match=final, entry=final.entry_a, won=True, spread=5)
    bye = Match.objects.get(playoff=playoff, round=1, slot=0)
    with pytest.raises(ServiceError, match="not in this match"):
        match_game_report(match=semi, entry=bye.entry_a, won=True, spread=5)
    assert not MatchLine.objects.exists()


def test_loser_deals_first_in_the_next_game(bracket):
    _, playoff = bracket(playoff_first_deal="loser_deals")
    semi = Match.objects.get(playoff=playoff, round=1, slot=1)
    a, b = semi.entry_a, semi.entry_b
    _play(semi, a, b)
    _play(semi, b, a)
    match_game_report(match=semi, entry=a, won=True, spread=3)
    dealers = list(semi.games.order_by("number").values_list("first_dealer_id", flat=True))
    assert dealers == [None, b.pk, a.pk]


def test_disagreeing_cards_are_flagged_and_a_director_corrects_them(bracket):
    event, playoff = bracket(playoff_best_of={"every": 3})
    semi = Match.objects.get(playoff=playoff, round=1, slot=1)
    a, b = semi.entry_a, semi.entry_b
    match_game_report(match=semi, entry=a, won=True, spread=20)
    match_game_report(match=semi, entry=b, won=True, spread=20)
    game = MatchGame.objects.get(match=semi)
    assert game.status == "flagged"
    with pytest.raises(ServiceError, match="why"):
        match_game_correct(match_game=game, winner_entry=b, spread=20, reason=" ", user=None)
    match_game_correct(
        match_game=game, winner_entry=b, spread=25, reason="A's card misread", user=event.director
    )
    game.refresh_from_db()
    assert (game.status, game.winner_id) == ("verified", b.pk)
    lines = MatchLine.objects.filter(match_game=game)
    assert lines.filter(kind="reported").count() == 2  # the reports are kept
    fixed = lines.get(kind="verified", entry=b)
    assert (fixed.source, fixed.plus, fixed.reason, fixed.entered_by) == (
        "director",
        25,
        "A's card misread",
        event.director,
    )
    # A decided game can be corrected again: the winner changes, the old lines stay.
    match_game_correct(match_game=game, winner_entry=a, spread=5, reason="x", user=None)
    game.refresh_from_db()
    assert game.winner_id == a.pk
    assert lines.filter(kind="verified", current=False).count() == 2
    match_game_report(match=semi, entry=a, won=True, spread=9)  # play goes on with game 2
    assert semi.games.count() == 2


def test_no_show_clock_forfeits_a_game_at_5_minutes_then_every_15(bracket):
    _, playoff = bracket(playoff_best_of={"every": 5})
    semi = Match.objects.get(playoff=playoff, round=1, slot=1)
    present, absent = semi.entry_a, semi.entry_b
    start = timezone.now() - timedelta(hours=2)
    match_clock_start(match=semi, absent=absent, user=None, now=start)
    assert match_forfeits_apply(match=semi, now=start + timedelta(minutes=4, seconds=59)) == 0
    assert match_forfeits_apply(match=semi, now=start + timedelta(minutes=5)) == 1
    assert match_forfeits_apply(match=semi, now=start + timedelta(minutes=19)) == 0
    assert match_forfeits_apply(match=semi, now=start + timedelta(minutes=20)) == 1
    assert playoff_forfeits_apply_all(now=start + timedelta(minutes=35)) == 1
    assert match_forfeits_apply(match=semi, now=start + timedelta(hours=5)) == 0
    games = list(semi.games.order_by("number"))
    assert [g.created_at - start for g in games] == [
        timedelta(minutes=5),
        timedelta(minutes=20),
        timedelta(minutes=35),
    ]
    assert all(g.forfeit and g.winner_id == present.pk for g in games)
    lost = MatchLine.objects.get(match_game=games[0], entry=absent, kind="verified")
    assert (lost.game_points, lost.minus, lost.source) == (0, 10, "forfeit")
    semi.refresh_from_db()
    assert (semi.status, semi.winner_id) == ("decided", present.pk)
    final = Match.objects.get(playoff=playoff, round=2)
    assert final.entry_b_id == present.pk


def test_the_clock_needs_a_player_of_a_match_in_play(bracket):
    _, playoff = bracket()
    semi = Match.objects.get(playoff=playoff, round=1, slot=1)
    final = Match.objects.get(playoff=playoff, round=2)
    with pytest.raises(ServiceError, match="waiting"):
        match_clock_start(match=final, absent=final.entry_a, user=None)
    with pytest.raises(ServiceError, match="not in this match"):
        match_clock_start(match=semi, absent=final.entry_a, user=None)
    match_clock_start(match=semi, absent=semi.entry_b, user=None)
    with pytest.raises(ServiceError, match="already running"):
        match_clock_start(match=semi, absent=semi.entry_b, user=None)
