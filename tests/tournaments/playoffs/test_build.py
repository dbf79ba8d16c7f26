"""The cut and the bracket: built from the verified standings once play is over, never twice."""

import pytest

from tournaments.errors import ServiceError
from tournaments.models import Event, Job, Match, Playoff, PlayoffSeed
from tournaments.selectors.standings import standings_live
from tournaments.services.playoffs import playoff_build, playoff_build_request
from tournaments.services.results import card_line_report

pytestmark = pytest.mark.django_db


def _build(event, capture):
    with capture(execute=True):
        job = playoff_build_request(event=event, user=event.director)
    job.refresh_from_db()
    return job


def test_twelve_players_give_three_qualifiers_four_lines_and_one_bye(
    qualified_event, django_capture_on_commit_callbacks
):
    event = qualified_event(12, 5, playoff_best_of={"every": 3, "final": 5})
    job = _build(event, django_capture_on_commit_callbacks)
    assert (job.kind, job.status) == ("bracket", Job.Status.SUCCEEDED), job.error
    playoff = Playoff.objects.get(event=event)
    assert (playoff.entrants, playoff.qualifiers, playoff.job_id) == (12, 3, job.pk)
    standings = standings_live(event=event)
    top = [row.entry_id for row in standings.rows[:4]]
    seeds = list(PlayoffSeed.objects.filter(playoff=playoff).values_list("entry_id", "seed"))
    assert seeds == [(top[0], 1), (top[1], 2), (top[2], 3)]
    assert playoff.high_non_qualifier_id == top[3]
    matches = {(m.round, m.slot): m for m in Match.objects.filter(playoff=playoff)}
    assert set(matches) == {(1, 0), (1, 1), (2, 0)}
    bye, played, final = matches[(1, 0)], matches[(1, 1)], matches[(2, 0)]
    assert (bye.bye, bye.status, bye.winner_id, bye.seed_a) == (True, "decided", top[0], 1)
    assert (played.entry_a_id, played.entry_b_id, played.status) == (top[1], top[2], "ready")
    assert (played.seed_a, played.seed_b, played.best_of) == (2, 3, 3)
    assert (final.entry_a_id, final.entry_b_id, final.status, final.best_of) == (
        top[0],
        None,
        "waiting",
        5,
    )
    event.refresh_from_db()
    assert event.stage == Event.Stage.PLAYOFFS


def test_building_twice_creates_nothing_new(qualified_event, django_capture_on_commit_callbacks):
    event = qualified_event(12, 5, playoff_best_of={"every": 5})
    _build(event, django_capture_on_commit_callbacks)
    again = playoff_build(event_id=event.pk)
    assert again["created"] is False
    assert Playoff.objects.count() == 1 and Match.objects.count() == 3
    assert PlayoffSeed.objects.count() == 3
    with pytest.raises(ServiceError, match="already built"):
        playoff_build_request(event=event, user=event.director)
    assert Match.objects.get(round=1, slot=1).best_of == 5  # the length chosen for every round


def test_refused_while_a_game_is_open(qualified_event):
    event = qualified_event(12, 2, last_open=True)
    with pytest.raises(ServiceError, match="Game 2 is not closed") as refused:
        playoff_build_request(event=event, user=event.director)
    assert refused.value.code == "not_ready"
    with pytest.raises(ServiceError):
        playoff_build(event_id=event.pk)
    assert not Playoff.objects.exists() and not Job.objects.filter(kind="bracket").exists()


def test_refused_while_a_tie_straddles_the_cut(event_in_play, django_capture_on_commit_callbacks):
    from tournaments.models import Game, Table
    from tournaments.services.results import game_close

    event = event_in_play(4, qualifying_games=1, qualifier_ratio=4)  # one qualifier
    for table in Table.objects.filter(game__event=event):
        winner, loser = table.seats.order_by("position")
        card_line_report(seat=winner, won=True, spread=10)  # two equal winners
        card_line_report(seat=loser, won=False, spread=10)
    game_close(game=Game.objects.get(event=event), user=event.director)
    with pytest.raises(ServiceError, match="tied across the cut") as refused:
        playoff_build_request(event=event, user=event.director)
    assert refused.value.code == "cut_tie"
    assert not Playoff.objects.exists()
