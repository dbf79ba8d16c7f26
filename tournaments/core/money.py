"""Prize money: the prize fund, the qualifier pool, playoff payouts by finish band, adjustments.

Terms:
- cents: every amount is a whole number of cents. Percentages are exact (int, decimal string,
  ``Decimal`` or ``Fraction``), so 12.5% of a fund is never off by a float.
- prize fund: the entry fees less the ACC sanctioning fee per entrant and the house's
  deductions (hall, cards, expenses), each set by the director.
- qualifier pool (optional): part of the prize fund paid to the qualifiers by qualifying
  position, set as an amount or as a percentage of the fund (rounded down to a cent). Splits:
  - "equal": one share for each qualifier;
  - "equal_top_doubled": one share each, two for the top qualifier;
  - "graduated" with N = 4, 6, 8 or 10 ("1 in N"). The domain page names this split but not
    its figures, so Pegboard uses a linear graduation of our own: from the top, every N
    qualifiers form a group (the last one may be smaller); the bottom group gets one share
    each and each group above one share more. With 27 qualifiers and N = 4 there are 7 groups:
    places 1-4 get 7 shares each, 5-8 get 6, ..., 25-27 get 1.
  Qualifiers tied in rank share their places' shares equally.
- playoff fund: the prize fund less the qualifier pool.
- band percentage: the director's percentage of the playoff fund for one finish band
  (``bracket.finish_bands``). Everyone finishing in the band gets an equal part: the losers of
  a round are paid alike. With byes, round 1's band holds fewer than its nominal places, and
  those who are in it share all of it. Percentages may total less than 100: the rest is
  reported as ``unallocated``, never paid silently.
- rounding unit: every payment is rounded down to a multiple of it (default 100: whole dollars).
  What that leaves is reported as ``rounding_left_over`` for the director to place by hand.
- payout line: a run of places paid alike. Keys: "1", "2", "3-4" for playoff finishes, "Q1",
  "Q5-8" for qualifier places, or an entry id once places are matched to players
  (``payouts_by_player``). ``players`` share the line and each receives ``each``.
- adjustment: the director's change, in cents, to what each holder of one line receives.
- balance: the fund not paid out: unallocated + rounding left over - net adjustments.
- partner shares: in a doubles event a payout line is paid per team (the team's place); each
  partner receives an equal share, and a cent that does not divide goes to the first partner
  (the one entered first), so the shares always sum to the team's amount.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from fractions import Fraction
from itertools import groupby
from typing import Literal, NamedTuple

from tournaments.core.bracket import band_players

Percent = int | float | str | Decimal | Fraction
PoolSplit = Literal["equal", "equal_top_doubled", "graduated"]
SPLITS: tuple[PoolSplit, ...] = ("equal", "equal_top_doubled", "graduated")
GRADUATIONS = (4, 6, 8, 10)
Key = str | int


def _not_negative(value: int, field: str) -> None:
    if value < 0:
        raise ValueError(f"{field} must be 0 or more (got {value})")


def _percent(value: Percent, field: str) -> Fraction:
    """An exact percentage, 0-100. A float is read by its printed digits (12.5 -> 25/2)."""
    try:
        percent = Fraction(repr(value) if isinstance(value, float) else value)
    except (TypeError, ValueError, ZeroDivisionError):
        raise ValueError(f"{field} must be a percentage (got {value!r})") from None
    if not 0 <= percent <= 100:
        raise ValueError(f"{field} must be 0 to 100 percent (got {value})")
    return percent


@dataclass(frozen=True)
class Fund:
    """Where the prize fund comes from; ``deductions`` are (label, cents) as the director set."""

    entrants: int
    entry_fees: int
    sanctioning_fees: int
    deductions: tuple[tuple[str, int], ...]

    @property
    def net(self) -> int:
        """The prize fund."""
        return self.entry_fees - self.sanctioning_fees - sum(c for _, c in self.deductions)


def prize_fund(
    *,
    entry_fee: int,
    sanctioning_fee: int,
    entrants: int,
    deductions: Mapping[str, int] | None = None,
) -> Fund:
    """The prize fund for ``entrants`` paying ``entry_fee`` cents each."""
    _not_negative(entry_fee, "entry fee")
    _not_negative(sanctioning_fee, "sanctioning fee")
    _not_negative(entrants, "entrants")
    deductions = deductions or {}
    for label, cents in deductions.items():
        _not_negative(cents, f"deduction {label!r}")
    fund = Fund(
        entrants, entry_fee * entrants, sanctioning_fee * entrants, tuple(deductions.items())
    )
    if fund.net < 0:
        raise ValueError(
            f"sanctioning fees and deductions ({fund.entry_fees - fund.net} cents) "
            f"exceed the entry fees ({fund.entry_fees} cents)"
        )
    return fund


@dataclass(frozen=True)
class QualifierPool:
    """An optional pool for the qualifiers: exactly one of ``amount`` (cents) or ``percent``."""

    split: PoolSplit = "equal"
    amount: int | None = None
    percent: Percent | None = None
    graduation: int | None = None

    def __post_init__(self) -> None:
        if (self.amount is None) == (self.percent is None):
            raise ValueError("a qualifier pool is set by amount or by percent (exactly one)")
        if self.amount is not None:
            _not_negative(self.amount, "qualifier pool amount")
        if self.percent is not None:
            _percent(self.percent, "qualifier pool percent")
        if self.split not in SPLITS:
            raise ValueError(f"qualifier pool split must be one of {SPLITS} (got {self.split!r})")
        if self.split == "graduated" and self.graduation not in GRADUATIONS:
            raise ValueError(
                f"a graduated pool needs graduation 1 in {GRADUATIONS} (got {self.graduation})"
            )
        if self.split != "graduated" and self.graduation is not None:
            raise ValueError(f"graduation applies only to a graduated pool, not {self.split!r}")

    def cents(self, fund: int) -> int:
        """The pool taken from ``fund``; a percentage is rounded down to a cent."""
        if self.percent is not None:
            return int(fund * _percent(self.percent, "qualifier pool percent") / 100)
        amount = self.amount or 0
        if amount > fund:
            raise ValueError(
                f"qualifier pool amount ({amount} cents) exceeds the fund ({fund} cents)"
            )
        return amount


class PayoutLine(NamedTuple):
    """Places paid alike: each of ``players`` holders of ``key`` receives ``each`` cents."""

    key: Key
    players: int
    each: int

    @property
    def total(self) -> int:
        return self.players * self.each


@dataclass(frozen=True)
class Payouts:
    """The payout lines of one fund, and what they leave: ``paid + balance == fund``."""

    fund: int
    lines: tuple[PayoutLine, ...]
    unallocated: int
    rounding_left_over: int
    adjusted: int = 0  # net of the director's adjustments, in cents

    @property
    def paid(self) -> int:
        return sum(line.total for line in self.lines)

    @property
    def balance(self) -> int:
        return self.fund - self.paid


def place_key(first: int, last: int, prefix: str = "") -> str:
    """How a run of places is named: "1", "3-4"; qualifier places take the prefix "Q"."""
    return f"{prefix}{first}" if first == last else f"{prefix}{first}-{last}"


def held_places(first: int, last: int, qualifiers: int) -> str:
    """The places the players of a finish band really share, as every page, sheet, CSV and API
    answer shows them: with byes round 1's band holds fewer than its nominal places, so with 6
    qualifiers the band "5-8" (the payout line's key) is places "5-6"."""
    return place_key(first, min(last, qualifiers))


def dollars(cents: int) -> str:
    """An amount written for people, the one home of money's format: 18000 -> "180.00",
    -250 -> "-2.50". Pages put "$" in front (the ``money`` template filter); CSVs do not."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(int(cents)), 100)
    return f"{sign}{whole}.{part:02d}"


def partner_shares(cents: int, partners: int = 2) -> tuple[int, ...]:
    """A team's payout split between its partners, first partner first: equal shares, the
    cents that do not divide to the first partners (10001 -> (5001, 5000))."""
    if partners < 1:
        raise ValueError(f"a team has 1 partner or more (got {partners})")
    _not_negative(cents, "a team's payout")
    share, odd = divmod(cents, partners)
    return tuple(share + (place < odd) for place in range(partners))


def payout_schedule(
    *,
    fund: int,
    qualifiers: int,
    band_percents: Mapping[tuple[int, int], Percent],
    pool: QualifierPool | None = None,
    qualifier_ranks: Sequence[int] | None = None,
    rounding_unit: int = 100,
) -> Payouts:
    """What each finish band and each qualifier place is paid from ``fund`` (cents).

    ``band_percents`` maps finish bands, e.g. ``{(1, 1): 30, (3, 4): 20}``, to a percentage of
    the playoff fund; bands left out are not paid. ``qualifier_ranks`` gives the qualifying rank
    of each qualifier, best first (1, 2, 2, 4...), so that tied qualifiers share alike in the pool.
    """
    _not_negative(fund, "fund")
    if rounding_unit < 1:
        raise ValueError(f"rounding unit must be 1 cent or more (got {rounding_unit})")
    bands = band_players(qualifiers)
    pool_cents = pool.cents(fund) if pool is not None else 0
    playoff_fund = fund - pool_cents
    percents = _band_percents(band_percents, bands)
    exact = [
        (place_key(*band), bands[band], playoff_fund * percent / 100 / bands[band])
        for band, percent in percents.items()
    ]
    if pool is not None:
        exact += _pool_lines(pool, pool_cents, qualifiers, qualifier_ranks)
    lines = tuple(
        PayoutLine(key, players, int(share // rounding_unit) * rounding_unit)
        for key, players, share in exact
    )
    unallocated = int(playoff_fund * (100 - sum(percents.values())) / 100)
    paid = sum(line.total for line in lines)
    return Payouts(fund, lines, unallocated, fund - paid - unallocated)


def _band_percents(
    band_percents: Mapping[tuple[int, int], Percent], bands: Mapping[tuple[int, int], int]
) -> dict[tuple[int, int], Fraction]:
    """The percentages checked against the bracket's bands, best band first."""
    size = max(last for _, last in bands)
    for band in band_percents:
        if band not in bands:
            raise ValueError(
                f"{band} is not a finish band of the {size}-line bracket; "
                f"the bands are {list(bands)}"
            )
    percents = {
        band: _percent(band_percents[band], f"percentage for places {place_key(*band)}")
        for band in bands
        if band in band_percents
    }
    total = sum(percents.values())
    if total > 100:
        raise ValueError(f"band percentages total {float(total):g}%, more than 100%")
    return percents


def pool_weights(split: str, qualifiers: int, graduation: int | None = None) -> list[int]:
    """Shares for qualifier places 1..Q, before ties are evened out."""
    if split == "equal":
        return [1] * qualifiers
    if split == "equal_top_doubled":
        return [2] + [1] * (qualifiers - 1)
    if split == "graduated" and graduation in GRADUATIONS:
        groups = -(-qualifiers // graduation)
        return [groups - place // graduation for place in range(qualifiers)]
    raise ValueError(f"unknown pool split {split!r} (graduation {graduation})")


def _pool_lines(
    pool: QualifierPool, cents: int, qualifiers: int, ranks: Sequence[int] | None
) -> list[tuple[str, int, Fraction]]:
    """(key, players, exact share) for each run of qualifier places with the same share."""
    weights = [Fraction(w) for w in pool_weights(pool.split, qualifiers, pool.graduation)]
    shares = _even_out_ties(weights, _checked_ranks(ranks, qualifiers))
    whole = sum(weights)
    lines = []
    place = 1
    for share, run in groupby(shares):
        players = len(list(run))
        lines.append((place_key(place, place + players - 1, "Q"), players, cents * share / whole))
        place += players
    return lines


def _checked_ranks(ranks: Sequence[int] | None, qualifiers: int) -> list[int]:
    if ranks is None:
        return list(range(1, qualifiers + 1))
    if len(ranks) != qualifiers:
        raise ValueError(f"qualifier ranks: {len(ranks)} given for {qualifiers} qualifiers")
    for place, rank in enumerate(ranks, start=1):
        # Standard competition ranking: each rank is the place of the first of its tie.
        if rank != place and (place == 1 or rank != ranks[place - 2]):
            raise ValueError(f"qualifier ranks must run 1, 2, 2, 4...; place {place} has {rank}")
    return list(ranks)


def _even_out_ties(weights: list[Fraction], ranks: list[int]) -> list[Fraction]:
    """Each tied group's weights replaced by their average."""
    even: list[Fraction] = []
    for _, run in groupby(range(len(ranks)), key=ranks.__getitem__):
        places = list(run)
        average = sum(weights[p] for p in places) / len(places)
        even.extend([average] * len(places))
    return even


def apply_adjustments(payouts: Payouts, adjustments: Mapping[Key, int]) -> Payouts:
    """``payouts`` with each holder of a line paid the given cents more (or less).

    Raises ``ValueError`` for a key with no line, a payment below 0, or payments totalling more
    than the fund; the message gives the amount over.
    """
    lines = {line.key: line for line in payouts.lines}
    unknown = [key for key in adjustments if key not in lines]
    if unknown:
        raise ValueError(f"no payout line for {unknown}; the lines are {list(lines)}")
    for key, cents in adjustments.items():
        line = lines[key]
        if line.each + cents < 0:
            raise ValueError(f"adjusting {key!r} by {cents} cents would pay {line.each + cents}")
        lines[key] = line._replace(each=line.each + cents)
    changed = replace(
        payouts,
        lines=tuple(lines.values()),
        adjusted=payouts.adjusted + sum(c * lines[k].players for k, c in adjustments.items()),
    )
    if changed.balance < 0:
        raise ValueError(
            f"the adjustments pay {changed.paid} cents, {-changed.balance} more than "
            f"the fund of {payouts.fund}"
        )
    return changed


def payouts_by_player(payouts: Payouts, holders: Mapping[Key, Sequence[int]]) -> Payouts:
    """One line per entry, summing every line it holds (a qualifier place and a finish band).

    ``holders`` names the entries holding each line; their number must match the line's.
    """
    extra = [key for key in holders if key not in {line.key for line in payouts.lines}]
    if extra:
        raise ValueError(f"no payout line for {extra}")
    owed: dict[int, int] = {}
    for line in payouts.lines:
        entries = holders.get(line.key, ())
        if len(entries) != line.players or len(set(entries)) != len(entries):
            raise ValueError(
                f"places {line.key!r} are paid to {line.players} different entries "
                f"(got {list(entries)})"
            )
        for entry in entries:
            owed[entry] = owed.get(entry, 0) + line.each
    lines = tuple(PayoutLine(entry, 1, cents) for entry, cents in owed.items())
    return replace(payouts, lines=lines)
