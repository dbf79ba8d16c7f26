"""How many games a playoff match is, by the round's NAME, counted from the final.

Terms:
- lengths: ``{"every": n, "semi": n or None, "final": n or None}``, stored on the event as
  ``Event.playoff_best_of``. ``every`` is the length of every round; ``semi`` (the round before
  the final) and ``final`` override it when set. Counting from the final means a choice keeps
  its meaning whatever the size of the bracket: a final set to best of 7 is best of 7 whether
  the field makes a bracket of 2 rounds or of 5.
- rounds: the rounds of the bracket, the final being round ``rounds`` (``core.bracket``).
- per round (the old shape): a list of lengths by round number from round 1, the last value
  repeating. ``lengths_from_rounds`` reads one, for the migration and for old backups.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

DEFAULT_BEST_OF = 5
NAMES = ("every", "semi", "final")
WORDS = {"every": "every round", "semi": "the semi-finals", "final": "the final"}
LONGEST = 15


def lengths_default() -> dict[str, int | None]:
    return {"every": DEFAULT_BEST_OF, "semi": None, "final": None}


def lengths_of(stored: Any) -> dict[str, int | None]:
    """The stored value with every name present (an empty value is the default)."""
    if not stored:
        return lengths_default()
    every = stored.get("every") or DEFAULT_BEST_OF
    return {"every": every, "semi": stored.get("semi"), "final": stored.get("final")}


def best_of_for(lengths: Mapping[str, Any], round: int, rounds: int) -> int:
    """Games in a match of ``round`` in a bracket of ``rounds`` rounds."""
    lengths = lengths_of(lengths)
    if round == rounds and lengths["final"]:
        return int(lengths["final"])
    if round == rounds - 1 and lengths["semi"]:
        return int(lengths["semi"])
    return int(lengths["every"])


def lengths_problem(value: Any) -> str | None:
    """Why ``value`` is not a set of playoff lengths, in words that say what to send."""
    shape = (
        'Playoff lengths are named: {"every": 5, "semi": 7, "final": 7}, each best of an odd '
        f'number of games from 1 to {LONGEST}; leave "semi" or "final" out (or null) for '
        "the same length as every round."
    )
    if not isinstance(value, Mapping):
        return shape
    unknown = sorted(set(value) - set(NAMES))
    if unknown:
        return f"Unknown playoff round {', '.join(map(repr, unknown))}. {shape}"
    if value.get("every") is None:
        return f'"every" is needed. {shape}'
    for name in NAMES:
        games = value.get(name)
        if games is None and name != "every":
            continue
        if isinstance(games, bool) or not isinstance(games, int):
            return f"The length of {WORDS[name]} must be a whole number. {shape}"
        if games < 1 or games > LONGEST or games % 2 == 0:
            return f"{WORDS[name].capitalize()}: best of {games} is not allowed. {shape}"
    return None


def lengths_from_rounds(per_round: Sequence[int], rounds: int | None) -> dict[str, int | None]:
    """The named lengths an old by-round list meant for a bracket of ``rounds`` rounds.

    ``rounds`` is the bracket the list was laid out for; unknown (None), the list's own length
    is used, as the settings page laid a list out for the bracket it knew. Rounds before the
    semi-finals take round 1's length.
    """
    per_round = [int(n) for n in per_round] or [DEFAULT_BEST_OF]
    rounds = rounds or len(per_round)

    def at(r: int) -> int:
        return per_round[min(max(r, 1), len(per_round)) - 1]

    every = at(1)
    semi = at(rounds - 1) if rounds >= 2 else None
    final = at(rounds)
    return {
        "every": every,
        "semi": semi if semi is not None and semi != every else None,
        "final": final if final != every else None,
    }


def lengths_words(lengths: Mapping[str, Any]) -> str:
    """ "best of 5; the semi-finals best of 7; the final best of 7"."""
    lengths = lengths_of(lengths)
    parts = [f"best of {lengths['every']}"]
    parts += [f"{WORDS[n]} best of {lengths[n]}" for n in ("semi", "final") if lengths[n]]
    return "; ".join(parts)
