"""The MRP ledger: finalising a sanctioned event writes one row per award; a correction
re-finalises it by a job (old rows kept, superseded); the results page reads the ledger; a
rebuild from the stored results gives the same rows."""

import math

import pytest

from scoring.games import CardLine as EngineLine
from tests.helpers import client_for
from tournaments.errors import ServiceError
from tournaments.models import (
    CardLine,
    Entry,
    Event,
    Finalisation,
    Match,
    MatchGame,
    MrpAward,
    Playoff,
    PlayoffSeed,
)
from tournaments.selectors.standings import standings_live
from tournaments.services.corrections import table_correct
from tournaments.services.ledger import event_finalise_request, ledger_rebuild
from tournaments.services.playoffs_corrections import match_game_void

pytestmark = pytest.mark.django_db

# Consolation: scale 3, playoffs 4 * r(r+1)/2, T for 7 games = 9 (the domain page's table).
SCALE, PSCALE, THRESHOLD = 3, 4, 9


def _expected(event) -> dict[int, int]:
    """Every qualifier's MRPs, worked out here from the rules, not by Pegboard's code."""
    standings = standings_live(event=event)
    gp = {row.entry_id: row.game_points for row in standings.rows}
    seeds = list(PlayoffSeed.objects.filter(playoff__event=event).order_by("seed"))
    q = len(seeds)
    rounds = math.ceil(math.log2(q)) if q > 1 else 0
    size = 1 << rounds
    won = {s.entry_id: 0 for s in seeds}
    for seed in seeds:  # a bye is a round won
        if seed.seed <= size - q:
            won[seed.entry_id] += 1
    for match in Match.objects.filter(playoff__event=event, bye=False, status="decided"):
        won[match.winner_id] += 1
    expected = {}
    for seed in seeds:
        top_half = seed.qualifying_rank <= math.ceil(q / 2)
        qualifying = max(SCALE, SCALE * (gp[seed.entry_id] - THRESHOLD + 1)) if top_half else SCALE
        r = won[seed.entry_id] + 1
        expected[seed.entry_id] = qualifying + PSCALE * r * (r + 1) // 2
    return expected


def _finalise(event, capture):
    with capture(execute=True):
        job = event_finalise_request(event=event, user=event.director)
    job.refresh_from_db()
    assert job.status == "succeeded", job.error
    event.refresh_from_db()
    return job


def test_finalising_writes_one_row_per_award_with_its_inputs(
    finished_event, django_capture_on_commit_callbacks
):
    event = finished_event()
    _finalise(event, django_capture_on_commit_callbacks)
    awards = {a.entry_id: a for a in MrpAward.objects.filter(event=event, current=True)}
    assert {e: a.points for e, a in awards.items()} == _expected(event)
    champion = Match.objects.filter(playoff__event=event).order_by("-round").first().winner_id
    row = awards[champion]
    assert (row.round_lost, row.schedule, row.kind, row.games) == (
        None, "2016-08-01", "consolation", 7,
    )  # fmt: skip
    assert row.points == row.qualifying_points + row.playoff_points and row.member
    assert event.finalised_at is not None
    assert Finalisation.objects.get(event=event).awards == len(awards)
    results = client_for(event.director).get(f"/api/v1/events/{event.pk}/results/").json()
    assert results["finalised"] is True
    assert {r["entry_id"]: r["mrp"] for r in results["rows"] if r["mrp"] is not None} == {
        e: a.points for e, a in awards.items()
    }


def test_finalising_again_changes_nothing(finished_event, django_capture_on_commit_callbacks):
    event = finished_event()
    _finalise(event, django_capture_on_commit_callbacks)
    rows = list(MrpAward.objects.order_by("pk").values_list("pk", "points", "current"))
    _finalise(event, django_capture_on_commit_callbacks)
    assert list(MrpAward.objects.order_by("pk").values_list("pk", "points", "current")) == rows
    assert Finalisation.objects.filter(event=event).count() == 1
    assert ledger_rebuild() == {"events": 1, "changed": 0}
    assert list(MrpAward.objects.order_by("pk").values_list("pk", "points", "current")) == rows


def test_a_correction_re_finalises_and_keeps_the_old_rows(
    finished_event, django_capture_on_commit_callbacks
):
    event = finished_event()
    _finalise(event, django_capture_on_commit_callbacks)
    top = PlayoffSeed.objects.get(playoff__event=event, seed=1).entry_id
    # A win over a player below the cut, a game point up or down, that leaves the bracket as it
    # is (a change that moves a seed or the high non-qualifier is refused once the playoff has
    # games). The pairings vary from run to run, and so which of the top seed's wins were
    # skunks (the fixture's spread of 31 in odd games) and whom they were over.
    playoff = Playoff.objects.get(event=event)
    around_the_cut = {*playoff.seeds.values_list("entry_id", flat=True)}
    around_the_cut.add(playoff.high_non_qualifier_id)
    gp = {row.entry_id: row.game_points for row in standings_live(event=event).rows}
    second = PlayoffSeed.objects.get(playoff=playoff, seed=2).entry_id
    wins = CardLine.objects.filter(
        seat__entry_id=top, kind="verified", current=True, game_points__in=(2, 3)
    ).select_related("seat__table")
    choices = []
    for line in wins:
        for opponent in line.seat.table.seats.exclude(entry_id=top):
            if opponent.entry_id in around_the_cut:
                continue
            if line.game_points == 2:  # made a skunk: the opponent only falls
                choices.append((0, line, opponent, EngineLine(3, 40, 0), EngineLine(0, 0, 40), 1))
            elif (  # a skunk made a plain win: the opponent's spread rises, the top seed's GP falls
                gp[opponent.entry_id] < gp[playoff.high_non_qualifier_id]
                and gp[top] - 1 > gp[second]
            ):
                choices.append((1, line, opponent, EngineLine(2, 10, 0), EngineLine(0, 0, 10), -1))
    assert choices, "the top seed has no win that a correction could change without the bracket"
    _, win, other, won, lost, step = min(choices, key=lambda choice: (choice[0], choice[1].pk))
    before = MrpAward.objects.get(event=event, entry_id=top, current=True).points
    with django_capture_on_commit_callbacks(execute=True):
        table_correct(
            table=win.seat.table,
            lines={win.seat_id: won, other.pk: lost},
            reason="The spread was written wrong",
            user=event.director,
            source="director",
        )
    now = MrpAward.objects.get(event=event, entry_id=top, current=True)
    assert now.points == before + step * SCALE
    old = MrpAward.objects.get(event=event, entry_id=top, current=False)
    assert old.points == before and old.superseded_at is not None
    assert Finalisation.objects.filter(event=event).count() == 2
    assert {a.entry_id: a.points for a in MrpAward.objects.filter(event=event, current=True)} == (
        _expected(event)
    )
    results = client_for(event.director).get(f"/api/v1/events/{event.pk}/results/").json()
    assert next(r["mrp"] for r in results["rows"] if r["entry_id"] == top) == now.points


def test_reopening_the_final_withdraws_the_awards(
    finished_event, django_capture_on_commit_callbacks
):
    event = finished_event()
    _finalise(event, django_capture_on_commit_callbacks)
    final = Match.objects.filter(playoff__event=event).order_by("-round").first()
    last = MatchGame.objects.filter(match=final).order_by("-number").first()
    with django_capture_on_commit_callbacks(execute=True):
        match_game_void(match_game=last, reason="wrong table", user=event.director)
    event.refresh_from_db()
    assert event.finalised_at is None
    assert not MrpAward.objects.filter(event=event, current=True).exists()


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"preset": "acc-consolation", "play": False}, "final is not decided"),
    ],
)
def test_refused_with_the_reason(finished_event, settings, message):
    event = finished_event(**settings)
    with pytest.raises(ServiceError, match=message):
        event_finalise_request(event=event, user=event.director)
    assert not MrpAward.objects.exists() and Event.objects.get(pk=event.pk).finalised_at is None


def test_a_player_without_an_acc_number_is_flagged_not_dropped(
    finished_event, django_capture_on_commit_callbacks
):
    event = finished_event()
    top = PlayoffSeed.objects.get(playoff__event=event, seed=1).entry
    top.player.acc_number = ""
    top.player.save()
    _finalise(event, django_capture_on_commit_callbacks)
    award = MrpAward.objects.get(entry=top, current=True)
    assert award.member is False and award.points > 0


def test_finalise_by_api(finished_event, django_capture_on_commit_callbacks):
    event = finished_event()
    api = client_for(event.director)
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(f"/api/v1/events/{event.pk}/finalise/")
    assert answer.status_code == 202 and answer.json()["kind"] == "ledger"
    job = api.get(f"/api/v1/jobs/{answer.json()['id']}/").json()
    assert job["status"] == "succeeded", job
    assert MrpAward.objects.filter(event=event, current=True).count() == (
        Entry.objects.filter(event=event, pk__in=PlayoffSeed.objects.values("entry_id")).count()
    )
    stranger = client_for()
    assert stranger.post(f"/api/v1/events/{event.pk}/finalise/").status_code in (401, 403)
