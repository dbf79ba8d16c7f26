"""Judges' rulings that change the score of a game in progress.

Terms:

- position: the board when the judges are called: both scores as pegged (the offender's peg
  where they put it) and the target. A game is over once a side reaches the target or forfeits.
- offender: the player the ruling is against. For muggins it is the owner said to have missed
  points; a wrong muggins call then benefits the offender.
- opponent_pegs / backward: penalty points are pegged by the opponent unless the rule says
  "backward", in which case the offender pegs back (never below 0).
- correction: retracting over-pegged points. Not a penalty.
- administrative: the game ends off the board; see games.administrative_lines.
- infraction: one catalogue entry. ``rulebook_edition`` and ``rule`` cite the rulebook. The
  project's rules page gives neither an edition nor any rule number for these entries, so the
  catalogue leaves both blank rather than guess; ``Infraction.cited`` fills them in from the
  event's rulebook.

The effects follow the catalogue in acc-tournaments.md, "Judges and rulings". Points pegged by a
ruling stop at the target: the game ends the moment a side reaches it, and a game that is over
takes no further ruling. After a false claim of game the offender's 15 backward is pegged even
when the opponent has just won with the over-claimed points, because the catalogue lists it as
the next step without exception; the offender's final score, and so the spread, reflects it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

from scoring.games import (
    ACC_SETTINGS,
    SIDES,
    CardLine,
    ScoringSettings,
    administrative_lines,
    game_result,
    other_side,
)


class RulingError(ValueError):
    """A ruling that cannot be applied as given."""


@dataclass(frozen=True)
class Infraction:
    """One catalogue entry: what was done, what follows, and where the rulebook says so."""

    code: str
    name: str
    description: str
    consequence: str
    direction: str
    default_points: int | None
    is_penalty: bool
    judges_required: bool = False
    rulebook_edition: str = ""
    rule: str = ""

    def cited(self, edition: str, rule: str) -> Infraction:
        return replace(self, rulebook_edition=edition, rule=rule)


def _procedural(code: str, name: str) -> Infraction:
    return Infraction(
        code, name, f"Procedural error: {name.lower()}.", "2 to the opponent.",
        "opponent_pegs", 2, True,
    )  # fmt: skip


def _administrative(code: str, name: str) -> Infraction:
    return Infraction(
        code, name, f"Absence or conduct: {name.lower()}.",
        "Administrative win to the opponent (2 GP, +10); 0 GP, -10 to the offender.",
        "administrative", None, False,
    )  # fmt: skip


_ENTRIES = (
    Infraction(
        "false_claim_of_game", "False claim of game",
        "Pegging into the game hole or writing a win when not entitled.",
        "Offender's peg back to the true score; opponent pegs the over-claimed points (not past "
        "the target; if that reaches the target, the opponent wins); then the offender pegs 15 "
        "backward (not below 0). Judges must be called.",
        "backward", 15, True, judges_required=True,
    ),
    Infraction(
        "overpeg", "Overpegging", "Pegging more than entitled, short of game.",
        "Offender back to the true score; opponent pegs the difference.",
        "correction", None, False,
    ),
    Infraction(
        "renege", "Renege", "Not playing a playable card.",
        "Retraction; 2 per reneged card to the opponent.", "opponent_pegs", 2, True,
    ),
    Infraction(
        "muggins", "Muggins", "Points the owner missed (only where the flyer says muggins is "
        "in effect).",
        "Opponent pegs the lesser of claimed and true missed points; a wrong call gives the "
        "claimed points to the other player.",
        "opponent_pegs", None, False,
    ),
    _procedural("exposed_bottom_card", "Exposed bottom card"),
    _procedural("no_cut_offered", "No cut offered"),
    _procedural("crib_examined", "Crib examined"),
    _procedural("starter_misplaced", "Starter misplaced"),
    _procedural("opponents_pegs", "Pegging with the opponent's pegs"),
    Infraction(
        "wrong_hand_size_refused_check", "Wrong hand size, check refused",
        "Not letting the dealer verify a wrong-sized hand.",
        "10 backward (not below 0).", "backward", 10, True,
    ),
    _administrative("late_from_lunch", "Late from lunch"),
    _administrative("refusal_to_conform", "Refusal to conform to a final ruling"),
    _administrative("playoff_no_show", "Playoff no-show"),
)  # fmt: skip

CATALOGUE: dict[str, Infraction] = {entry.code: entry for entry in _ENTRIES}


@dataclass(frozen=True)
class Position:
    """The board: both scores, the target, and who forfeited the game, if anyone did."""

    score_a: int
    score_b: int
    target: int = 121
    forfeited_by: str | None = None

    def __post_init__(self) -> None:
        for name in ("target", "score_a", "score_b"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"{name} must be a whole number, not {value!r}.")
        if self.target < 1:
            raise ValueError(f"target must be at least 1, not {self.target}.")
        for name in ("score_a", "score_b"):
            if not 0 <= getattr(self, name) <= self.target:
                raise ValueError(f"{name} must be 0 to {self.target}, not {getattr(self, name)}.")
        if self.score_a == self.score_b == self.target:
            raise ValueError("Both players cannot be at the target: the first one there won.")
        if self.forfeited_by not in (None, *SIDES):
            raise ValueError(f"forfeited_by is None, 'a' or 'b', not {self.forfeited_by!r}.")

    def score(self, side: str) -> int:
        return self.score_a if side == "a" else self.score_b

    def with_score(self, side: str, score: int) -> Position:
        return replace(self, **{f"score_{side}": score})

    @property
    def winner(self) -> str | None:
        if self.forfeited_by is not None:
            return other_side(self.forfeited_by)
        for side in SIDES:
            if self.score(side) == self.target:
                return side
        return None

    @property
    def over(self) -> bool:
        return self.winner is not None


# The figures each code takes (beyond code and offender), and which of them it needs.
_ACCEPTS = {
    "false_claim_of_game": ({"true_score"}, {"true_score"}),
    "overpeg": ({"true_score"}, {"true_score"}),
    "renege": ({"reneged_cards", "true_score"}, {"reneged_cards"}),
    "muggins": ({"claimed_missed", "true_missed"}, {"claimed_missed", "true_missed"}),
}
_FIGURES = ("true_score", "reneged_cards", "claimed_missed", "true_missed")
_LEAST = {"true_score": 0, "reneged_cards": 1, "claimed_missed": 1, "true_missed": 0}


@dataclass(frozen=True)
class Ruling:
    """A ruling: the catalogue code, the offender ("a" or "b") and the figures the code needs.

    true_score: where the offender's peg belongs (false claim, overpeg; a renege's retraction).
    reneged_cards: cards not played (renege). claimed_missed / true_missed: the points the caller
    claimed the owner missed and the points actually missed (muggins; true_missed 0 is a wrong
    call). muggins_in_effect: the event flyer's setting; muggins cannot be ruled without it.
    """

    code: str
    offender: str
    true_score: int | None = None
    reneged_cards: int | None = None
    claimed_missed: int | None = None
    true_missed: int | None = None
    muggins_in_effect: bool = False

    def __post_init__(self) -> None:
        if self.code not in CATALOGUE:
            raise RulingError(f"Unknown infraction code {self.code!r}.")
        if self.offender not in SIDES:
            raise RulingError(f"The offender is 'a' or 'b', not {self.offender!r}.")
        accepted, required = _ACCEPTS.get(self.code, (set(), set()))
        for name in _FIGURES:
            value = getattr(self, name)
            if value is None:
                if name in required:
                    raise RulingError(f"A {self.code} ruling needs {name}.")
                continue
            if name not in accepted:
                raise RulingError(f"{name} does not apply to a {self.code} ruling.")
            if not isinstance(value, int) or isinstance(value, bool) or value < _LEAST[name]:
                raise RulingError(f"{name} must be a whole number, at least {_LEAST[name]}.")

    @property
    def infraction(self) -> Infraction:
        return CATALOGUE[self.code]

    @property
    def beneficiary(self) -> str:
        """The side the ruling favours: the opponent, except after a wrong muggins call."""
        wrong_call = self.code == "muggins" and self.true_missed == 0
        return self.offender if wrong_call else other_side(self.offender)


def _peg(position: Position, side: str, points: int) -> Position:
    # A side that reaches the target has won; nothing, penalties included, carries past it.
    return position.with_score(side, min(position.target, position.score(side) + points))


def _peg_back(position: Position, side: str, points: int) -> Position:
    return position.with_score(side, max(0, position.score(side) - points))


def _retract(position: Position, ruling: Ruling) -> Position:
    """Put the offender's peg back to ``true_score``: a correction, never forward."""
    if ruling.true_score is None:
        return position
    pegged = position.score(ruling.offender)
    if ruling.true_score > pegged:
        raise RulingError(
            f"The true score {ruling.true_score} is above the offender's peg ({pegged}): "
            "a ruling never moves the offender forward."
        )
    return position.with_score(ruling.offender, ruling.true_score)


def _false_claim(position: Position, ruling: Ruling) -> Position:
    if ruling.true_score >= position.target:
        raise RulingError("With a true score at the target the claim of game was not false.")
    over_claimed = position.target - ruling.true_score
    board = _peg(_retract(position, ruling), other_side(ruling.offender), over_claimed)
    return _peg_back(board, ruling.offender, ruling.infraction.default_points)


def _overpeg(position: Position, ruling: Ruling) -> Position:
    difference = position.score(ruling.offender) - ruling.true_score
    if difference <= 0:
        raise RulingError("The offender's peg is not past the true score: nothing was overpegged.")
    return _peg(_retract(position, ruling), other_side(ruling.offender), difference)


def _renege(position: Position, ruling: Ruling) -> Position:
    points = ruling.infraction.default_points * ruling.reneged_cards
    return _peg(_retract(position, ruling), other_side(ruling.offender), points)


def _muggins(position: Position, ruling: Ruling) -> Position:
    if not ruling.muggins_in_effect:
        raise RulingError("Muggins is not in effect in this event (the flyer must say so).")
    if ruling.true_missed == 0:
        return _peg(position, ruling.offender, ruling.claimed_missed)
    points = min(ruling.claimed_missed, ruling.true_missed)
    return _peg(position, other_side(ruling.offender), points)


def _by_direction(position: Position, ruling: Ruling) -> Position:
    infraction = ruling.infraction
    if infraction.direction == "administrative":
        return replace(position, forfeited_by=ruling.offender)
    if infraction.direction == "backward":
        return _peg_back(position, ruling.offender, infraction.default_points)
    return _peg(position, other_side(ruling.offender), infraction.default_points)


_HANDLERS: dict[str, Callable[[Position, Ruling], Position]] = {
    "false_claim_of_game": _false_claim,
    "overpeg": _overpeg,
    "renege": _renege,
    "muggins": _muggins,
}


def _check_open(position: Position, ruling: Ruling) -> None:
    # A false claim of game puts the offender's own peg in the game hole; that claimed win is
    # what the ruling is about, so only a real end (the opponent out, or a forfeit) stops it.
    if ruling.code == "false_claim_of_game":
        ended = position.forfeited_by is not None or position.winner == other_side(ruling.offender)
    else:
        ended = position.over
    if ended:
        raise RulingError("The game is already over; a finished game takes no ruling.")


def apply_ruling(position: Position, ruling: Ruling) -> Position:
    """The board after ``ruling``, following the catalogue's consequence for its code."""
    _check_open(position, ruling)
    return _HANDLERS.get(ruling.code, _by_direction)(position, ruling)


def administrative_result(
    offender: str, settings: ScoringSettings = ACC_SETTINGS
) -> tuple[CardLine, CardLine]:
    """(line_a, line_b) when ``offender`` loses the game administratively."""
    winner_line, offender_line = administrative_lines(settings)
    return (offender_line, winner_line) if offender == "a" else (winner_line, offender_line)


def result_lines(
    position: Position, settings: ScoringSettings = ACC_SETTINGS
) -> tuple[CardLine, CardLine]:
    """(line_a, line_b) of a finished game, from the board or the forfeit."""
    if position.target != settings.target:
        raise RulingError(
            f"The board is a {position.target}-point game but the event plays to {settings.target}."
        )
    if position.forfeited_by is not None:
        return administrative_result(position.forfeited_by, settings)
    if position.winner is None:
        raise RulingError("The game is not over yet: no result to record.")
    loser = other_side(position.winner)
    result = game_result(position.score(loser), settings)
    if loser == "a":
        return result.loser_line, result.winner_line
    return result.winner_line, result.loser_line
