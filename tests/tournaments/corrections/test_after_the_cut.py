"""Corrections after the cut: the bracket is built from the standings at the cut, so a change
that would alter who qualifies, a seed, the byes or the high non-qualifier is refused unless
the director rebuilds the bracket (only while no playoff game is reported and the Consolation
has not started). Other changes stand at any time and reach the standings, MRPs and money."""

from __future__ import annotations

import pytest

from scoring.games import CardLine as EngineLine
from tests.helpers import client_for, sanction
from tests.tournaments.corrections.conftest import seats_of
from tournaments.core.cut import CutState, cut_change, cut_state
from tournaments.core.standings import Line, compute_standings
from tournaments.errors import ServiceError
from tournaments.models import (
    AuditEntry,
    CardLine,
    Entry,
    Match,
    Notice,
    Playoff,
    PlayoffSeed,
    StandingsSnapshot,
    Table,
)
from tournaments.selectors.standings import standings_entrants, standings_lines, standings_live
from tournaments.services.consolation import consolation_create
from tournaments.services.corrections import table_correct
from tournaments.services.events import event_close_registration, event_update_settings
from tournaments.services.pairings import game_pairings_request
from tournaments.services.playoffs_matches import match_game_report

pytestmark = pytest.mark.django_db


def _stored(event) -> CutState:
    playoff = Playoff.objects.get(event=event)
    seeds = tuple(playoff.seeds.order_by("seed").values_list("entry_id", flat=True))
    return CutState(seeds, playoff.high_non_qualifier_id)


def _swap(table: Table, spread: int = 40):
    """The table's result the other way round: the loser wins by ``spread``."""
    a, b = seats_of(table)
    verified = {
        line.seat_id: line
        for line in CardLine.objects.filter(seat__table=table, kind="verified")
        if line.current
    }
    a_won = verified[a.pk].game_points > 0
    winner, loser = (b, a) if a_won else (a, b)
    points = 3 if spread >= 31 else 2
    return {winner.pk: EngineLine(points, spread, 0), loser.pk: EngineLine(0, 0, spread)}


def _cut_after(event, table: Table, lines: dict) -> CutState:
    """The cut state if ``lines`` replaced the table's lines: worked out here, from the pure
    core, without the services."""
    seat_entry = {seat.pk: seat.entry_id for seat in table.seats.all()}
    replaced = {(seat_entry[sid], table.game.number): line for sid, line in lines.items()}
    new = []
    for line in standings_lines(event=event):
        change = replaced.get((line.entry_id, line.game))
        if change is None:
            new.append(line)
        else:
            new.append(
                Line(line.entry_id, line.game, change.game_points, change.plus, change.minus,
                     line.opponent_id, change.game_points > 0)
            )  # fmt: skip
    return cut_state(
        compute_standings(lines=new, entrants=standings_entrants(event=event), qualifier_ratio=4)
    )


def _find(event, *, changes_cut: bool, spread: int = 40):
    for table in Table.objects.filter(game__event=event).select_related("game"):
        lines = _swap(table, spread)
        if bool(cut_change(_stored(event), _cut_after(event, table, lines))) == changes_cut:
            return table, lines
    raise AssertionError("no such correction in this event")


def _consistent(event) -> None:
    """Standings, bracket and results agree: what every page must show at every moment."""
    standings = standings_live(event=event)
    snapshot = StandingsSnapshot.objects.filter(event=event).latest()
    assert [r["entry_id"] for r in snapshot.rows] == [r.entry_id for r in standings.rows]
    assert [r["game_points"] for r in snapshot.rows] == [r.game_points for r in standings.rows]
    assert _stored(event) == cut_state(standings)
    ranks = {r.entry_id: r.rank for r in standings.rows}
    for seed in PlayoffSeed.objects.filter(playoff__event=event):
        assert seed.qualifying_rank == ranks[seed.entry_id]
    results = client_for(event.director).get(f"/api/v1/events/{event.pk}/results/").json()
    places = [row["place"] for row in results["rows"]]
    assert places.count("1") <= 1 and places.count("2") <= 1


def test_a_correction_that_keeps_the_cut_stands_and_reaches_the_pages(cut_made):
    event = cut_made(12, 5)
    table, lines = _find(event, changes_cut=False)
    table_correct(
        table=table, lines=lines, reason="Misread card", user=event.director, source="director"
    )
    _consistent(event)
    assert not Notice.objects.filter(message__contains="above the cut").exists()
    entry = AuditEntry.objects.get(action="table_correct")
    assert entry.after["bracket_rebuilt"] is False


def test_a_correction_that_changes_the_cut_is_refused_and_stores_nothing(cut_made):
    event = cut_made(12, 5)
    table, lines = _find(event, changes_cut=True)
    before = CardLine.objects.count(), list(PlayoffSeed.objects.values_list("entry_id", "seed"))
    with pytest.raises(ServiceError) as refused:
        table_correct(
            table=table, lines=lines, reason="Misread", user=event.director, source="director"
        )
    assert refused.value.code == "changes_bracket"
    assert "rebuilt" in refused.value.message and "Nothing was saved" in refused.value.message
    assert (
        CardLine.objects.count(),
        list(PlayoffSeed.objects.values_list("entry_id", "seed")),
    ) == before
    assert not AuditEntry.objects.filter(action="table_correct").exists()
    _consistent(event)


def test_with_the_directors_consent_the_bracket_is_rebuilt(cut_made):
    event = cut_made(12, 5)
    table, lines = _find(event, changes_cut=True)
    expected = _cut_after(event, table, lines)
    change = cut_change(_stored(event), expected)
    table_correct(
        table=table,
        lines=lines,
        reason="Misread",
        user=event.director,
        source="director",
        rebuild_bracket=True,
    )
    assert _stored(event) == expected
    _consistent(event)
    playoff = Playoff.objects.get(event=event)
    assert playoff.rebuilt_at is not None
    first_round = Match.objects.filter(playoff=playoff, round=1, bye=False)
    assert {m.entry_a_id for m in first_round} | {m.entry_b_id for m in first_round} <= set(
        expected.seeds
    )
    for entry in change.joined:
        assert Notice.objects.filter(entry_id=entry, message__contains="You now qualify").exists()
    for entry in change.left:
        assert Notice.objects.filter(entry_id=entry, message__contains="no longer").exists()


def test_no_rebuild_once_a_playoff_game_is_reported(cut_made):
    event = cut_made(12, 5)
    match = Match.objects.filter(playoff__event=event, status="ready").first()
    match_game_report(match=match, entry=match.entry_a, won=True, spread=10)
    table, lines = _find(event, changes_cut=True)
    with pytest.raises(ServiceError) as refused:
        table_correct(
            table=table,
            lines=lines,
            reason="Misread",
            user=event.director,
            source="director",
            rebuild_bracket=True,
        )
    assert refused.value.code == "bracket_locked"
    assert "1 playoff game is already reported" in refused.value.message
    _consistent(event)


def test_no_rebuild_once_the_consolation_has_started(cut_made, django_capture_on_commit_callbacks):
    event = cut_made(12, 5, preset="acc-main")
    consolation = consolation_create(main_event=event, user=event.director)
    table, lines = _find(event, changes_cut=True)
    table_correct(  # before it starts, the Consolation's field follows the new cut
        table=table,
        lines=lines,
        reason="Misread",
        user=event.director,
        source="director",
        rebuild_bracket=True,
    )
    seeded = set(
        PlayoffSeed.objects.filter(playoff__event=event).values_list("entry_id", flat=True)
    )
    playing = set(
        Entry.objects.filter(event=consolation, status="checked_in").values_list(
            "player_id", flat=True
        )
    )
    seeded_players = set(Entry.objects.filter(pk__in=seeded).values_list("player_id", flat=True))
    assert not playing & seeded_players
    assert len(playing) == 12 - len(seeded)
    event_update_settings(event=consolation, user=event.director, qualifying_games=7)
    event_close_registration(event=consolation, user=event.director)
    with django_capture_on_commit_callbacks(execute=True):
        game_pairings_request(event=consolation, number=1, user=event.director)
    table, lines = _find(event, changes_cut=True)
    with pytest.raises(ServiceError) as refused:
        table_correct(
            table=table,
            lines=lines,
            reason="Misread again",
            user=event.director,
            source="director",
            rebuild_bracket=True,
        )
    assert refused.value.code == "bracket_locked" and "has started" in refused.value.message


def test_a_change_to_points_reaches_the_mrps(cut_made):
    event = sanction(cut_made(12, 7, preset="acc-consolation"))
    top = PlayoffSeed.objects.get(playoff__event=event, seed=1).entry_id
    api = client_for(event.director)
    before = {
        r["entry_id"]: r["mrp"]
        for r in api.get(f"/api/v1/events/{event.pk}/results/").json()["rows"]
    }
    plain_win = (
        CardLine.objects.filter(seat__entry_id=top, kind="verified", current=True, game_points=2)
        .select_related("seat__table")
        .first()
    )
    table = plain_win.seat.table
    other = next(s for s in table.seats.all() if s.entry_id != top)
    lines = {plain_win.seat_id: EngineLine(3, 40, 0), other.pk: EngineLine(0, 0, 40)}
    assert not cut_change(_stored(event), _cut_after(event, table, lines))
    table_correct(
        table=table, lines=lines, reason="It was a skunk", user=event.director, source="director"
    )
    after = {
        r["entry_id"]: r["mrp"]
        for r in api.get(f"/api/v1/events/{event.pk}/results/").json()["rows"]
    }
    assert after[top] == before[top] + 3  # Consolation scale 3, one more game point
    _consistent(event)


def test_the_api_refuses_with_the_code_and_applies_with_rebuild_bracket(cut_made):
    event = cut_made(12, 5)
    table, lines = _find(event, changes_cut=True)
    positions = {seat.pk: seat.position for seat in table.seats.all()}
    body = {
        "lines": [
            {"position": positions[sid], "game_points": ln.game_points, "plus": ln.plus,
             "minus": ln.minus}
            for sid, ln in lines.items()
        ],
        "reason": "Misread",
    }  # fmt: skip
    url = f"/api/v1/events/{event.pk}/games/{table.game.number}/tables/{table.number}/correct/"
    api = client_for(event.director)
    refused = api.post(url, body, format="json")
    assert refused.status_code == 400
    assert refused.json()["errors"][0]["code"] == "changes_bracket"
    assert refused.json()["errors"][0]["field"] == "rebuild_bracket"
    applied = api.post(url, {**body, "rebuild_bracket": True}, format="json")
    assert applied.status_code == 200, applied.json()
    _consistent(event)
