"""The playoff bracket after the cut: seeding, byes, advancing winners and finishes.

Terms:
- cut: one qualifier per ``ratio`` entrants (default 4), rounded up (``standings.qualifier_count``).
- qualifier: an entry that made the cut, given as an integer id. Qualifiers arrive in seed
  order (qualifying rank, ties already ordered by the director), so the first is seed 1.
- size (lines): the bracket size ``B``, the smallest power of two holding every qualifier.
- bye: a first-round "match" whose seed_b is above the number of qualifiers: the line is
  empty and seed_a advances without playing. There are ``B - Q`` byes and they go to seeds
  1..B-Q, so round 2 is a full bracket.
- seed order: the bracket lines top to bottom. In round 1 seed s meets seed ``B + 1 - s``, and
  the order is the standard one: seeds 1 and 2 are in opposite halves, 1-4 in different
  quarters, 1-8 in different eighths, so the top seeds meet as late as possible (with the
  favourites winning, every round is the standard bracket of half the size).
- round: 1 is the first round, ``rounds = log2(B)`` the final. A bracket of one has no rounds.
- slot: a match's place within its round, counted from 0 at the top. The winner of round r,
  slot k plays in round r+1, slot k // 2, on side "a" (upper line) for even k, "b" otherwise.
- result: the winner of one played match, keyed by (round, slot). Byes need none.
- finish: the places a player shares. Single elimination with no third-place match, so all the
  losers of a round share one finish band: (1, 1) the champion, (2, 2) the losing finalist, then
  (3, 4), (5, 8), ... and (B/2 + 1, B) for the first round. Bands are nominal: with byes fewer
  than B/2 players lose in round 1, and ``band_players`` counts how many really share each.
- rounds won: matches won in the playoffs, a bye counting as one; the champion won them all.
MRPs, which read the finishes, are in ``core.mrp``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal, NamedTuple

from tournaments.core.standings import qualifier_count

Side = Literal["a", "b"]
Result = tuple[int, int]  # (round, slot)


def bracket_size(qualifiers: int) -> int:
    """The number of lines: the next power of two at or above ``qualifiers`` (1 for 1)."""
    if qualifiers < 1:
        raise ValueError(f"a bracket needs at least one qualifier (got {qualifiers})")
    return 1 << (qualifiers - 1).bit_length()


def byes(qualifiers: int) -> int:
    """How many of the top seeds skip round 1."""
    return bracket_size(qualifiers) - qualifiers


class Cut(NamedTuple):
    """The playoff shape for a field: qualifiers, bracket lines and byes."""

    entrants: int
    qualifiers: int
    lines: int
    byes: int


def cut_for(entrants: int, ratio: int = 4) -> Cut:
    """The cut and bracket for ``entrants`` (one qualifier per ``ratio``, rounded up)."""
    qualifiers = qualifier_count(entrants, ratio)
    if qualifiers < 1:
        raise ValueError(f"no playoff: {entrants} entrants at ratio {ratio} give no qualifiers")
    return Cut(entrants, qualifiers, bracket_size(qualifiers), byes(qualifiers))


def _rounds_of(size: int) -> int:
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket size is a power of two, 1 or more (got {size})")
    return size.bit_length() - 1


@cache  # the same few sizes, rebuilt on every result
def seed_order(size: int) -> tuple[int, ...]:
    """The seeds on the bracket lines, top to bottom; pairs of lines are round-1 matches.

    Built by doubling: every seed s of the bracket of half the size is followed by its new
    round-1 opponent ``size + 1 - s``, which keeps each earlier meeting one round later.
    """
    _rounds_of(size)
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return tuple(order)


class Match(NamedTuple):
    """One match; players and seeds are None until known. A bye's winner is set from the start.

    A named tuple: a 1,024-line bracket has 1,023 matches and is rebuilt on every result.
    """

    round: int
    slot: int
    seed_a: int | None
    seed_b: int | None
    player_a: int | None
    player_b: int | None
    bye: bool = False
    winner: int | None = None

    @property
    def ready(self) -> bool:
        """Both players are known and the match is to be played (not a bye)."""
        return not self.bye and self.player_a is not None and self.player_b is not None

    @property
    def loser(self) -> int | None:
        if self.winner is None or self.bye:
            return None
        return self.player_b if self.winner == self.player_a else self.player_a


class Slot(NamedTuple):
    """Where a winner plays next: the match and the side (line) of it."""

    round: int
    slot: int
    side: Side


class Finish(NamedTuple):
    """A player's finish band (``first``-``last``) and playoff rounds won (byes included)."""

    first: int
    last: int
    rounds_won: int


@dataclass(frozen=True)
class Bracket:
    """Qualifiers in seed order and the matches round by round (``matches[0]`` is round 1)."""

    qualifiers: tuple[int, ...]
    matches: tuple[tuple[Match, ...], ...]
    champion: int | None

    @property
    def size(self) -> int:
        return bracket_size(len(self.qualifiers))

    @property
    def rounds(self) -> int:
        return len(self.matches)

    @property
    def first_round(self) -> tuple[Match, ...]:
        return self.matches[0] if self.matches else ()

    @property
    def results(self) -> dict[Result, int]:
        """The winners of the played matches (byes left out), as ``fill_bracket`` takes them."""
        return {
            (m.round, m.slot): m.winner
            for matches in self.matches
            for m in matches
            if m.winner is not None and not m.bye
        }

    def match(self, round: int, slot: int) -> Match:
        _check_slot(round, slot, self.rounds)
        return self.matches[round - 1][slot]

    def next_slot(self, round: int, slot: int) -> Slot:
        """Where the winner of (round, slot) plays next; the final's winner is the champion."""
        _check_slot(round, slot, self.rounds)
        if round == self.rounds:
            raise ValueError(f"round {round} is the final: its winner is the champion")
        return Slot(round + 1, slot // 2, "a" if slot % 2 == 0 else "b")


def _check_slot(round: int, slot: int, rounds: int) -> None:
    if not 1 <= round <= rounds:
        raise ValueError(f"round must be 1..{rounds} (got {round})")
    matches = 1 << (rounds - round)
    if not 0 <= slot < matches:
        raise ValueError(f"round {round} has slots 0..{matches - 1} (got {slot})")


def build_bracket(
    qualifier_ids_in_seed_order: Sequence[int], results: Mapping[Result, int] | None = None
) -> Bracket:
    """The bracket seeded from the qualifiers, byes through, with ``results`` played if given
    (as in ``fill_bracket``): what the playoff pages rebuild from the saved results."""
    qualifiers = tuple(qualifier_ids_in_seed_order)
    twice = sorted(q for q, times in Counter(qualifiers).items() if times > 1)
    if twice:
        raise ValueError(f"qualifiers lists entries more than once: {twice}")
    return _fill(qualifiers, results or {})


def fill_bracket(bracket: Bracket, results: Mapping[Result, int]) -> Bracket:
    """The bracket with ``results`` played: later rounds filled in, champion once decided.

    ``results`` is the whole set so far, so a correction is a new set, never a patch. Raises
    ``ValueError`` for a result on a bye, on a match whose players are not both known yet, for a
    winner who is not in the match, or for a (round, slot) that is not in the bracket.
    """
    return _fill(bracket.qualifiers, results)


def advance(bracket: Bracket, round: int, slot: int, winner_id: int) -> Bracket:
    """``bracket`` with one more result. A decided match is not overwritten: a correction
    goes through ``fill_bracket`` with the corrected results, so the caller records it."""
    current = bracket.match(round, slot)
    if current.bye:
        raise ValueError(f"round {round} slot {slot} is a bye: seed {current.seed_a} advances")
    if current.winner is not None and current.winner != winner_id:
        raise ValueError(
            f"round {round} slot {slot} is already decided (winner {current.winner}); "
            "correct it with fill_bracket"
        )
    return _fill(bracket.qualifiers, {**bracket.results, (round, slot): winner_id})


def rederive(
    qualifier_ids_in_seed_order: Sequence[int], results: Mapping[Result, int]
) -> tuple[Bracket, tuple[Result, ...]]:
    """The bracket with every result that still fits, after an earlier result changed.

    A result whose match no longer holds that winner (or no longer has both its players) is
    dropped, round by round, and returned with the bracket, so the caller can refuse a change
    that a later round's games depend on."""
    qualifiers = tuple(qualifier_ids_in_seed_order)
    kept: dict[Result, int] = {}
    dropped: list[Result] = []
    by_round = sorted(results.items())
    for round in sorted({r for r, _ in results}):
        bracket = _fill(qualifiers, kept)
        for (r, slot), winner in by_round:
            if r != round:
                continue
            match = bracket.match(r, slot)
            if not match.bye and winner in (match.player_a, match.player_b) and match.ready:
                kept[(r, slot)] = winner
            else:
                dropped.append((r, slot))
    return _fill(qualifiers, kept), tuple(dropped)


def _fill(qualifiers: tuple[int, ...], results: Mapping[Result, int]) -> Bracket:
    size = bracket_size(len(qualifiers))
    rounds = _rounds_of(size)
    for round, slot in results:
        _check_slot(round, slot, rounds)
    if size == 1:
        return Bracket(qualifiers, (), qualifiers[0])
    built = [_first_round(qualifiers, size, results)]
    seed_of: dict[int | None, int] = {p: seed for seed, p in enumerate(qualifiers, start=1)}
    while len(built[-1]) > 1:
        built.append(_next_round(built[-1], seed_of, results))
    return Bracket(qualifiers, tuple(built), built[-1][0].winner)


def _first_round(
    qualifiers: tuple[int, ...], size: int, results: Mapping[Result, int]
) -> tuple[Match, ...]:
    count = len(qualifiers)
    order = seed_order(size)
    matches = []
    for slot, (seed_a, seed_b) in enumerate(zip(order[::2], order[1::2], strict=True)):
        a = qualifiers[seed_a - 1]  # seed_a <= size / 2 < count: never an empty line
        b = qualifiers[seed_b - 1] if seed_b <= count else None
        winner = results.get((1, slot))
        if b is None:
            if winner is not None:
                raise ValueError(f"round 1 slot {slot} is a bye: seed {seed_a} advances")
            winner = a
        elif winner is not None:
            _check_result(1, slot, a, b, winner)
        matches.append(Match(1, slot, seed_a, seed_b, a, b, b is None, winner))
    return tuple(matches)


def _next_round(
    previous: tuple[Match, ...],
    seed_of: Mapping[int | None, int],
    results: Mapping[Result, int],
) -> tuple[Match, ...]:
    """The round after ``previous``: its winners, in line order, paired off."""
    round = previous[0].round + 1
    winners = [m.winner for m in previous]
    matches = []
    for slot, (a, b) in enumerate(zip(winners[::2], winners[1::2], strict=True)):
        winner = results.get((round, slot))
        if winner is not None:
            _check_result(round, slot, a, b, winner)
        matches.append(Match(round, slot, seed_of.get(a), seed_of.get(b), a, b, False, winner))
    return tuple(matches)


def _check_result(round: int, slot: int, a: int | None, b: int | None, winner: int) -> None:
    if a is None or b is None:
        raise ValueError(
            f"round {round} slot {slot} has no result yet: both its players are not known"
        )
    if winner not in (a, b):
        raise ValueError(
            f"round {round} slot {slot}: winner {winner} is not in the match ({a} v {b})"
        )


def finish_of(round_lost: int | None, rounds: int) -> tuple[int, int]:
    """The band shared by the losers of ``round_lost``; ``None`` means the champion, (1, 1)."""
    if round_lost is None:
        return (1, 1)
    if not 1 <= round_lost <= rounds:
        raise ValueError(f"round lost must be 1..{rounds} or None for the champion")
    size = 1 << rounds
    return ((size >> round_lost) + 1, size >> (round_lost - 1))


def finish_bands(size: int) -> list[tuple[int, int]]:
    """Every finish band of a bracket of ``size`` lines, best first: (1, 1), (2, 2), (3, 4)..."""
    rounds = _rounds_of(size)
    return [(1, 1)] + [finish_of(r, rounds) for r in range(rounds, 0, -1)]


def band_players(qualifiers: int) -> dict[tuple[int, int], int]:
    """How many players finish in each band, best first; round 1's band holds ``Q - B/2``."""
    size = bracket_size(qualifiers)
    counts = {band: band[1] - band[0] + 1 for band in finish_bands(size)}
    if size > 1:
        counts[(size // 2 + 1, size)] = qualifiers - size // 2
    return counts


def playoff_rounds_won(round_lost: int | None, rounds: int) -> int:
    """Rounds won by a loser of ``round_lost`` (a bye counts), or by the champion (``None``)."""
    finish_of(round_lost, rounds)  # checks the round
    return rounds if round_lost is None else round_lost - 1


def finishes(bracket: Bracket) -> dict[int, Finish]:
    """The finish of every player whose playoff is over: each loser, and the champion."""
    done: dict[int, Finish] = {}
    for matches in bracket.matches:
        for m in matches:
            if m.loser is not None:
                band = finish_of(m.round, bracket.rounds)
                done[m.loser] = Finish(*band, playoff_rounds_won(m.round, bracket.rounds))
    if bracket.champion is not None:
        done[bracket.champion] = Finish(1, 1, bracket.rounds)
    return done
