"""Prize money: the fund, payouts by finish band, qualifier pools, rounding and adjustments.

Amounts are worked by hand in the comments, so a test shows the arithmetic it checks.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.core.bracket import band_players
from tournaments.core.money import (
    Fund,
    PayoutLine,
    Payouts,
    QualifierPool,
    apply_adjustments,
    payout_schedule,
    payouts_by_player,
    pool_weights,
    prize_fund,
)

EIGHT_LINES = {(1, 1): 40, (2, 2): 25, (3, 4): 20, (5, 8): 15}


def amounts(payouts: Payouts) -> dict:
    return {line.key: (line.players, line.each) for line in payouts.lines}


# --- the prize fund ---------------------------------------------------------------------------


def test_the_prize_fund_is_the_entry_fees_less_sanctioning_and_deductions() -> None:
    fund = prize_fund(
        entry_fee=5000, sanctioning_fee=300, entrants=108, deductions={"hall": 20000, "cards": 2500}
    )
    # 108 * $50 = $5,400; less 108 * $3 = $324; less $225.
    assert fund == Fund(108, 540000, 32400, (("hall", 20000), ("cards", 2500)))
    assert fund.net == 540000 - 32400 - 22500


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param({"entry_fee": -1}, "entry fee must be 0 or more", id="entry fee"),
        pytest.param({"sanctioning_fee": -300}, "sanctioning fee must be 0", id="sanctioning"),
        pytest.param({"entrants": -2}, "entrants must be 0", id="entrants"),
        pytest.param({"deductions": {"hall": -5}}, "deduction 'hall' must be 0", id="deduction"),
        pytest.param({"deductions": {"hall": 100000}}, "exceed the entry fees", id="too much"),
    ],
)
def test_a_fund_that_cannot_be_is_refused(kwargs: dict, message: str) -> None:
    args = {"entry_fee": 2000, "sanctioning_fee": 300, "entrants": 40, **kwargs}
    with pytest.raises(ValueError, match=message):
        prize_fund(**args)


# --- payouts by finish band -------------------------------------------------------------------


def test_a_worked_payout_with_a_round_of_losers_paid_alike() -> None:
    # $1,000 among 7 qualifiers (8 lines, seed 1 has a bye): 3 players lose in round 1.
    payouts = payout_schedule(fund=100000, qualifiers=7, band_percents=EIGHT_LINES)
    assert amounts(payouts) == {
        "1": (1, 40000),
        "2": (1, 25000),
        "3-4": (2, 10000),  # 20% of $1,000 shared by two
        "5-8": (3, 5000),  # 15% shared by the three round-1 losers
    }
    assert (payouts.paid, payouts.unallocated, payouts.rounding_left_over) == (100000, 0, 0)
    assert payouts.balance == 0


def test_a_band_is_shared_by_the_players_really_in_it() -> None:
    # Six qualifiers on eight lines: only two lose in round 1, and they share all of 15%.
    payouts = payout_schedule(fund=100000, qualifiers=6, band_percents=EIGHT_LINES)
    assert amounts(payouts)["5-8"] == (2, 7500)


def test_rounding_down_to_the_unit_reports_what_is_left() -> None:
    # $123.45: 40% = 4938, 25% = 3086.25, 20% / 2 = 1234.5, 15% / 3 = 617.25 cents each.
    payouts = payout_schedule(fund=12345, qualifiers=7, band_percents=EIGHT_LINES)
    assert amounts(payouts) == {"1": (1, 4900), "2": (1, 3000), "3-4": (2, 1200), "5-8": (3, 600)}
    assert payouts.paid == 12100
    assert payouts.rounding_left_over == 245
    to_the_cent = payout_schedule(
        fund=12345, qualifiers=7, band_percents=EIGHT_LINES, rounding_unit=1
    )
    assert amounts(to_the_cent) == {
        "1": (1, 4938),
        "2": (1, 3086),
        "3-4": (2, 1234),
        "5-8": (3, 617),
    }
    assert to_the_cent.rounding_left_over == 12345 - 4938 - 3086 - 2 * 1234 - 3 * 617


def test_percentages_below_100_leave_the_rest_unallocated() -> None:
    payouts = payout_schedule(
        fund=100050, qualifiers=4, band_percents={(1, 1): 50, (2, 2): "25.5", (3, 4): 20}
    )
    # 4.5% of $1,000.50 is 4502.25 cents: 4502 unallocated; the rest is rounding.
    assert amounts(payouts) == {"1": (1, 50000), "2": (1, 25500), "3-4": (2, 10000)}
    assert payouts.unallocated == 4502
    assert payouts.rounding_left_over == 100050 - 95500 - 4502


def test_exact_percentages_are_not_floats() -> None:
    exact = {(1, 1): Fraction(100, 3), (2, 2): Decimal("33.3"), (3, 4): 33.3}
    payouts = payout_schedule(fund=300000, qualifiers=4, band_percents=exact, rounding_unit=1)
    assert amounts(payouts) == {"1": (1, 100000), "2": (1, 99900), "3-4": (2, 49950)}


@pytest.mark.parametrize(
    ("percents", "message"),
    [
        pytest.param({(1, 1): 60, (2, 2): 41}, "total 101%, more than 100%", id="over 100"),
        pytest.param({(1, 1): -5}, "places 1 must be 0 to 100 percent", id="negative"),
        pytest.param({(3, 4): "lots"}, "places 3-4 must be a percentage", id="not a number"),
        pytest.param(
            {(9, 16): 10}, r"\(9, 16\) is not a finish band of the 8-line bracket", id="bad band"
        ),
        pytest.param({(5, 6): 10}, r"the bands are \[\(1, 1\), \(2, 2\)", id="not a band"),
    ],
)
def test_bad_band_percentages_are_refused(percents: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        payout_schedule(fund=100000, qualifiers=7, band_percents=percents)


def test_other_bad_schedules_are_refused() -> None:
    with pytest.raises(ValueError, match="rounding unit must be 1 cent or more"):
        payout_schedule(fund=100, qualifiers=2, band_percents={}, rounding_unit=0)
    with pytest.raises(ValueError, match="fund must be 0 or more"):
        payout_schedule(fund=-1, qualifiers=2, band_percents={})
    with pytest.raises(ValueError, match="at least one qualifier"):
        payout_schedule(fund=100, qualifiers=0, band_percents={})


# --- qualifier pools --------------------------------------------------------------------------


def pool_only(pool: QualifierPool, qualifiers: int, fund: int, **kwargs) -> dict:
    payouts = payout_schedule(
        fund=fund, qualifiers=qualifiers, band_percents={}, pool=pool, **kwargs
    )
    return amounts(payouts)


def test_an_equal_pool() -> None:
    pool = QualifierPool("equal", amount=10000)
    assert pool_only(pool, 4, fund=50000) == {"Q1-4": (4, 2500)}


def test_an_equal_pool_with_the_top_qualifier_doubled() -> None:
    pool = QualifierPool("equal_top_doubled", amount=10000)
    # Five shares: 2 for the top qualifier, 1 each for the other three.
    assert pool_only(pool, 4, fund=50000) == {"Q1": (1, 4000), "Q2-4": (3, 2000)}


def test_a_graduated_pool_rises_one_share_every_n_qualifiers() -> None:
    pool = QualifierPool("graduated", amount=22000, graduation=4)
    # Ten qualifiers in groups of 4, 4, 2 with 3, 2 and 1 shares: 22 shares of $10.
    assert pool_only(pool, 10, fund=50000) == {
        "Q1-4": (4, 3000),
        "Q5-8": (4, 2000),
        "Q9-10": (2, 1000),
    }


@pytest.mark.parametrize(
    ("graduation", "weights"),
    [
        (4, [7] * 4 + [6] * 4 + [5] * 4 + [4] * 4 + [3] * 4 + [2] * 4 + [1] * 3),
        (6, [5] * 6 + [4] * 6 + [3] * 6 + [2] * 6 + [1] * 3),
        (8, [4] * 8 + [3] * 8 + [2] * 8 + [1] * 3),
        (10, [3] * 10 + [2] * 10 + [1] * 7),
    ],
)
def test_graduated_shares_for_27_qualifiers(graduation: int, weights: list[int]) -> None:
    assert pool_weights("graduated", 27, graduation) == weights


def test_a_pool_set_as_a_percentage_comes_out_of_the_fund_first() -> None:
    # 12.5% of $1,000.01 is 12500.125 cents: a pool of 12500; the playoffs share the 87501.
    pool = QualifierPool("equal", percent="12.5")
    payouts = payout_schedule(
        fund=100001, qualifiers=5, band_percents={(1, 1): 100}, pool=pool, rounding_unit=1
    )
    assert amounts(payouts) == {"1": (1, 87501), "Q1-5": (5, 2500)}
    assert payouts.balance == 0


def test_tied_qualifiers_share_their_places_alike() -> None:
    # Ranks 1, 1, 3, 4 with the top doubled: the two tied for first get 1.5 shares each.
    pool = QualifierPool("equal_top_doubled", amount=10000)
    assert pool_only(pool, 4, fund=10000, qualifier_ranks=[1, 1, 3, 4]) == {
        "Q1-2": (2, 3000),
        "Q3-4": (2, 2000),
    }
    graduated = QualifierPool("graduated", amount=9000, graduation=4)
    # Weights 2, 2, 2, 2, 1 (9 shares of $10); a tie for places 4-5 averages 2 and 1.
    assert pool_only(graduated, 5, fund=9000, qualifier_ranks=[1, 2, 3, 4, 4]) == {
        "Q1-3": (3, 2000),
        "Q4-5": (2, 1500),
    }


@pytest.mark.parametrize(
    ("ranks", "message"),
    [
        pytest.param([1, 2, 3], "3 given for 4 qualifiers", id="too few"),
        pytest.param([1, 2, 2, 3], "place 4 has 3", id="dense ranking"),
        pytest.param([2, 2, 3, 4], "place 1 has 2", id="no first"),
    ],
)
def test_qualifier_ranks_must_be_standings_ranks(ranks: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pool_only(QualifierPool(amount=100), 4, fund=100, qualifier_ranks=ranks)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param({}, "exactly one", id="neither"),
        pytest.param({"amount": 5, "percent": 5}, "exactly one", id="both"),
        pytest.param({"amount": -5}, "pool amount must be 0 or more", id="negative"),
        pytest.param({"percent": 120}, "0 to 100 percent", id="over 100%"),
        pytest.param({"amount": 5, "split": "winner"}, "split must be one of", id="split"),
        pytest.param(
            {"amount": 5, "split": "graduated", "graduation": 5},
            r"graduation 1 in \(4, 6, 8, 10\)",
            id="graduation",
        ),
        pytest.param({"amount": 5, "split": "graduated"}, r"1 in \(4, 6, 8, 10\)", id="no N"),
        pytest.param({"amount": 5, "graduation": 4}, "only to a graduated pool", id="N unused"),
    ],
)
def test_a_pool_that_cannot_be_is_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        QualifierPool(**kwargs)


def test_a_pool_larger_than_the_fund_is_refused() -> None:
    with pytest.raises(ValueError, match="exceeds the fund"):
        payout_schedule(fund=1000, qualifiers=2, band_percents={}, pool=QualifierPool(amount=1001))


# --- adjustments and paying players -----------------------------------------------------------


def test_adjustments_place_the_left_over_by_hand() -> None:
    payouts = payout_schedule(fund=12345, qualifiers=7, band_percents=EIGHT_LINES)
    assert payouts.balance == 245
    # $1 more to each of the two semi-final losers, 45 cents more to the winner.
    adjusted = apply_adjustments(payouts, {"3-4": 100, "1": 45})
    assert amounts(adjusted)["3-4"] == (2, 1300)
    assert amounts(adjusted)["1"] == (1, 4945)
    assert (adjusted.adjusted, adjusted.balance, adjusted.paid) == (245, 0, 12345)
    lowered = apply_adjustments(adjusted, {"5-8": -100})
    assert (lowered.adjusted, lowered.balance) == (-55, 300)


@pytest.mark.parametrize(
    ("adjustments", "message"),
    [
        pytest.param({"3-4": 200}, "pay 12500 cents, 155 more than the fund", id="over the fund"),
        pytest.param({"5-8": -601}, "would pay -1", id="below zero"),
        pytest.param({"3rd": 5}, r"no payout line for \['3rd'\]", id="unknown place"),
    ],
)
def test_adjustments_that_cannot_be_paid_are_refused(adjustments: dict, message: str) -> None:
    payouts = payout_schedule(fund=12345, qualifiers=7, band_percents=EIGHT_LINES)
    with pytest.raises(ValueError, match=message):
        apply_adjustments(payouts, adjustments)


def test_paying_players_adds_their_place_and_pool_lines() -> None:
    pool = QualifierPool("equal_top_doubled", amount=6000)
    payouts = payout_schedule(
        fund=30000, qualifiers=3, band_percents={(1, 1): 50, (2, 2): 30, (3, 4): 20}, pool=pool
    )
    # Playoff fund $240: 120, 72, 48; pool $60 in 4 shares: 30, 15, 15.
    assert amounts(payouts) == {
        "1": (1, 12000),
        "2": (1, 7200),
        "3-4": (1, 4800),
        "Q1": (1, 3000),
        "Q2-3": (2, 1500),
    }
    by_player = payouts_by_player(
        payouts, {"1": [30], "2": [10], "3-4": [20], "Q1": [10], "Q2-3": [20, 30]}
    )
    assert by_player.lines == (
        PayoutLine(30, 1, 13500),
        PayoutLine(10, 1, 10200),
        PayoutLine(20, 1, 6300),
    )
    assert by_player.paid == payouts.paid
    adjusted = apply_adjustments(by_player, {20: 100, 30: -100})
    assert amounts(adjusted) == {30: (1, 13400), 10: (1, 10200), 20: (1, 6400)}
    assert (adjusted.balance, adjusted.adjusted) == (0, 0)
    with pytest.raises(ValueError, match="'Q2-3' are paid to 2 different entries"):
        payouts_by_player(payouts, {"1": [30], "2": [10], "3-4": [20], "Q1": [10], "Q2-3": [20]})
    with pytest.raises(ValueError, match=r"no payout line for \['5-8'\]"):
        payouts_by_player(payouts, {"5-8": [1]})


@settings(max_examples=200, deadline=None)
@given(
    fund=st.integers(min_value=0, max_value=10_000_000),
    qualifiers=st.integers(min_value=1, max_value=300),
    cuts=st.lists(st.integers(min_value=0, max_value=1000), min_size=11, max_size=11),
    pool_percent=st.integers(min_value=0, max_value=50),
    unit=st.sampled_from([1, 5, 25, 100, 500]),
)
def test_every_cent_is_paid_unallocated_or_left_over(
    fund: int, qualifiers: int, cuts: list[int], pool_percent: int, unit: int
) -> None:
    bands = list(band_players(qualifiers))
    total = sum(cuts[: len(bands)]) or 1
    percents = {band: Fraction(90 * cut, total) for band, cut in zip(bands, cuts, strict=False)}
    pool = QualifierPool("graduated", percent=pool_percent, graduation=6)
    payouts = payout_schedule(
        fund=fund,
        qualifiers=qualifiers,
        band_percents=percents,
        pool=pool,
        rounding_unit=unit,
    )
    assert payouts.paid + payouts.unallocated + payouts.rounding_left_over == fund
    assert all(line.each % unit == 0 for line in payouts.lines)
    holders = sum(line.players for line in payouts.lines)
    # Each holder loses less than one unit to rounding, and the unallocated part under a cent.
    assert 0 <= payouts.rounding_left_over < unit * holders + 1
    playoff_fund = fund - fund * pool_percent // 100
    paid_percent = 90 if any(cuts[: len(bands)]) else 0
    assert payouts.unallocated == playoff_fund * (100 - paid_percent) // 100
