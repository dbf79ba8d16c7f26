"""Crafted rulings, playoff matches, judge calls and history rows: each refused, naming the
row and the field, with nothing saved. One rich event serves every case (it takes seconds to
play), so the cases run in a loop and a failure names its case."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.tournaments.backup.conftest import delete_event, forged, refused
from tournaments.services.backup_export import event_export
from tournaments.services.backup_import import event_import

pytestmark = pytest.mark.django_db


def _cases(doc: dict) -> list[tuple[tuple, object, str]]:
    """(path, value, the field the refusal names), found in ``doc``."""
    r = next(i for i, row in enumerate(doc["rulings"]) if row["table"])
    game, table = doc["rulings"][r]["table"]
    seated = {
        s["entry"] for g in doc["games"] if g["number"] == game for s in g["seats"]
        if s["table"] == table
    }  # fmt: skip
    stranger = next(e["key"] for e in doc["entries"] if e["key"] not in seated)
    m = next(i for i, row in enumerate(doc["playoff"]["matches"]) if row["games"])
    match = doc["playoff"]["matches"][m]
    outsider = next(
        e["key"] for e in doc["entries"] if e["key"] not in (match["entry_a"], match["entry_b"])
    )
    line = ("playoff", "matches", m, "games", 0, "lines", 0)
    numbered = next(i for i, row in enumerate(doc["audit"]) if row["game_number"])
    return [
        (("rulings", r, "direction"), "administrative", f"rulings[{r}].direction"),
        (("rulings", r, "offender"), stranger, f"rulings[{r}].offender"),
        (("rulings", r, "score_before_offender"), 500, f"rulings[{r}].score_before_offender"),
        (("rulings", r, "judges"), doc["rulings"][r]["judges"][:1], f"rulings[{r}].judges"),
        (("rulings", r, "table"), [99, 1], f"rulings[{r}].table"),
        (("rulings", r, "code"), "cheating", f"rulings[{r}].code"),
        (("rulings", r, "reneged_cards"), 0, f"rulings[{r}].reneged_cards"),
        (("rulings", r, "hand_number"), 0, f"rulings[{r}]"),
        (("playoff", "matches", m, "winner"), outsider, f"playoff.matches[{m}].winner"),
        (("playoff", "matches", m, "best_of"), 4, f"playoff.matches[{m}].best_of"),
        (("playoff", "matches", m, "status"), "fixed", f"playoff.matches[{m}].status"),
        ((*line, "entry"), outsider, f"playoff.matches[{m}].games[0].lines[0].entry"),
        ((*line, "game_points"), 7, f"playoff.matches[{m}].games[0].lines[0].game_points"),
        (("playoff", "payout_adjustments"), {"1": "lots"}, "playoff.payout_adjustments.1"),
        (("playoff", "entrants"), -12, "playoff.entrants"),
        (("judge_calls", 0, "table"), [1, 99], "judge_calls[0].table"),
        (("audit", 0, "before"), [], "audit[0].before"),
        (("audit", numbered, "game_number"), 99, f"audit[{numbered}].game_number"),
        (("audit", 0, "after"), {"deep": float("nan")}, "audit[0].after.deep"),
    ]


def test_crafted_play_is_refused_naming_its_place(rich_event):
    event = rich_event()
    doc = event_export(event=event)
    delete_event(event, doc)
    for path, value, field in _cases(doc):
        refusal = refused(forged(doc, path, value))
        assert refusal.field == field, f"{path}: {refusal.message}"
    assert event_import(data=doc, user=UserFactory()).name == event.name  # the intact one
