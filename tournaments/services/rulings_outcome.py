"""What a ruling does, worked out before anything is saved (``rulings.ruling_preview``).

- side: a player of the table or match the ruling is about: a table's ``Seat``, or a
  ``MatchSide`` standing in for one in a playoff match.
- ask: what the judges rule, wherever they rule it (a table or a playoff match): the one list
  of a ruling's fields that ``ruling_preview``, ``ruling_record`` and
  ``ruling_record_in_match`` take.
- figures: the counts some infractions need (``FIGURES``).
- outcome: the board before and after the ruling in the offender's and opponent's terms, and
  the card lines when it ends the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from scoring.games import CardLine as EngineLine
from scoring.games import other_side
from scoring.rulings import Infraction, Position
from tournaments.models import Entry, Seat

FIGURES = ("true_score", "reneged_cards", "claimed_missed", "true_missed")


@dataclass(frozen=True)
class RulingAsk:
    """A ruling as the judges give it, before it is checked."""

    code: str
    offender_entry: Entry
    score_before_offender: int
    score_before_opponent: int
    judges: Sequence[Any]
    entered_by: Any = None
    third_judge: bool = False
    final: bool = False
    notes: str = ""
    hand_number: int | None = None
    figures: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, **given: Any) -> RulingAsk:
        """From keyword arguments: the fields above, and any figures by name (None: not given)."""
        named = {f.name for f in fields(cls)} - {"figures"}
        figures = {name: value for name, value in given.items() if name not in named}
        unknown = set(figures) - set(FIGURES)
        if unknown:
            raise TypeError(f"unexpected figures: {', '.join(sorted(unknown))}")
        return cls(
            **{name: value for name, value in given.items() if name in named},
            figures={name: value for name, value in figures.items() if value is not None},
        )


@dataclass(frozen=True)
class MatchSide:
    """A player of a playoff match, standing in for a table's seat (``pk`` is the entry's)."""

    entry: Entry

    @property
    def pk(self) -> int:
        return self.entry.pk

    @property
    def entry_id(self) -> int:
        return self.entry.pk


@dataclass(frozen=True)
class RulingOutcome:
    """What a ruling does, before anything is saved: the board before and after, in the
    offender's and opponent's terms, and the card lines when it ends the game."""

    infraction: Infraction
    offender: Seat | MatchSide
    opponent: Seat | MatchSide
    beneficiary: Seat | MatchSide
    before: Position
    after: Position
    offender_side: str
    lines: dict[int, EngineLine] | None  # by seat id (entry id in a match), when the game is over

    @property
    def score_before_offender(self) -> int:
        return self.before.score(self.offender_side)

    @property
    def score_before_opponent(self) -> int:
        return self.before.score(other_side(self.offender_side))

    @property
    def score_after_offender(self) -> int:
        return self.after.score(self.offender_side)

    @property
    def score_after_opponent(self) -> int:
        return self.after.score(other_side(self.offender_side))

    @property
    def winner(self) -> Seat | MatchSide | None:
        if self.after.winner is None:
            return None
        return self.offender if self.after.winner == self.offender_side else self.opponent
