"""Qualifying standings: worked examples of each ACC tie-break, the cut, and properties checked
against a brute-force recomputation on small random events.

In the worked examples each tie-break is set against the next one, so a step applied in the
wrong order, or skipped, gives a different order. Entry ids are chosen so that id order is
never the right answer.
"""

from __future__ import annotations

import math
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.core.standings import (
    Line,
    Playoff,
    Row,
    Standings,
    compute_standings,
    qualifier_count,
)


def played(game: int, winner: int, loser: int, spread: int) -> list[Line]:
    """Both card lines of one game, scored the ACC way (skunk at 31 or more)."""
    points = 3 if spread >= 31 else 2
    return [
        Line(winner, game, points, spread, 0, loser, True),
        Line(loser, game, 0, 0, spread, winner, False),
    ]


def games(*results: tuple[int, int, int, int]) -> list[Line]:
    """The lines of several games, each given as (game, winner, loser, spread)."""
    return [line for result in results for line in played(*result)]


def solo(entry: int, game: int, points: int, plus: int = 0, minus: int = 0) -> Line:
    """A line with no opponent in the event (a sit-out when it is a win), so no head-to-head."""
    return Line(entry, game, points, plus, minus, None, points > 0)


def order(standings: Standings) -> list[int]:
    return [row.entry_id for row in standings.rows]


def ranks(standings: Standings) -> dict[int, int]:
    return {row.entry_id: row.rank for row in standings.rows}


def row(standings: Standings, entry: int) -> Row:
    return next(r for r in standings.rows if r.entry_id == entry)


def record(r: Row) -> tuple[int, int, int, int]:
    return (r.game_points, r.games_won, r.net_spread, r.plus_spread)


# --- the record: game points, games won, net spread, plus spread -------------------------------


WIN, LOSS = (2, 1, 0), (0, 0, 1)  # (game points, plus, minus)


@pytest.mark.parametrize(
    ("better", "worse"),
    [
        pytest.param([WIN, WIN], [(3, 60, 0), LOSS], id="game points before net spread"),
        pytest.param([(3, 40, 0)] * 3 + [LOSS], [WIN] * 4, id="game points before games won"),
        pytest.param([WIN] * 3, [(3, 40, 0)] * 2 + [(0, 0, 5)], id="games won before spread"),
        pytest.param([(2, 10, 0), LOSS], [(2, 30, 0), (0, 0, 25)], id="net before plus spread"),
        pytest.param([(2, 20, 0), (0, 0, 10)], [(2, 15, 0), (0, 0, 5)], id="plus, net equal"),
    ],
)
def test_the_record_is_compared_in_acc_order(better: list, worse: list) -> None:
    # Each ``worse`` record is ahead on every later criterion, so a step out of order shows.
    lines = [solo(2, game, *card) for game, card in enumerate(better, 1)]
    lines += [solo(1, game, *card) for game, card in enumerate(worse, 1)]
    standings = compute_standings(lines=lines, entrants=[1, 2])
    assert ranks(standings) == {2: 1, 1: 2}
    assert [r.games_played for r in standings.rows] == [len(better), len(worse)]


def test_a_sit_out_counts_as_a_game_won_and_played() -> None:
    lines = [*played(1, 1, 2, 5), Line(1, 2, 2, 10, 0, None, True), *played(2, 2, 3, 5)]
    standings = compute_standings(lines=lines, entrants=[1, 2, 3])
    sat_out = row(standings, 1)
    assert (sat_out.games_won, sat_out.games_played, sat_out.game_points) == (2, 2, 4)
    assert (sat_out.plus_spread, sat_out.net_spread) == (15, 15)


# --- head-to-head -----------------------------------------------------------------------------


def test_two_tied_who_met_are_ordered_by_their_game() -> None:
    lines = games((1, 2, 1, 5), (1, 3, 4, 20), (2, 3, 2, 5), (2, 1, 4, 5))
    standings = compute_standings(lines=lines, entrants=[1, 2, 3, 4])
    assert order(standings) == [3, 2, 1, 4]
    assert ranks(standings) == {3: 1, 2: 2, 1: 3, 4: 4}
    assert not any(r.tied for r in standings.rows)


def test_two_who_met_twice_split_the_games_so_spread_between_them_decides() -> None:
    a, b, c, d = 2, 1, 3, 4
    lines = games((1, a, b, 10), (1, c, d, 50), (2, b, a, 4), (2, c, d, 50))
    lines += games((3, a, c, 1), (3, d, b, 1), (4, d, a, 7), (4, b, c, 7))
    standings = compute_standings(lines=lines, entrants=[a, b, c, d])
    assert order(standings) == [c, a, b, d]
    assert row(standings, a).net_spread == row(standings, b).net_spread == 0
    assert not row(standings, a).tied


def test_two_who_met_twice_with_equal_games_and_spread_stay_tied() -> None:
    lines = games((1, 2, 1, 7), (2, 1, 2, 7), (1, 3, 4, 9), (2, 3, 4, 9))
    standings = compute_standings(lines=lines, entrants=[1, 2, 3, 4])
    assert ranks(standings) == {3: 1, 1: 2, 2: 2, 4: 4}
    assert order(standings) == [3, 1, 2, 4]  # the tied pair listed by id, for display only
    assert [r.tied for r in standings.rows] == [False, True, True, False]


def test_three_tied_who_all_met_are_ordered_by_wins_among_them() -> None:
    a, b, c, d, e = 3, 1, 2, 4, 5
    # A round robin of five, each sitting out once: a beat b and c, b beat c.
    lines = games((1, a, b, 5), (1, c, d, 5), (2, a, c, 5), (2, e, b, 5), (3, d, a, 5))
    lines += games((3, c, e, 5), (4, e, a, 5), (4, b, d, 5), (5, b, c, 5), (5, d, e, 40))
    lines += [solo(sat_out, game, 2, 10) for game, sat_out in enumerate((e, d, b, c, a), 1)]
    standings = compute_standings(lines=lines, entrants=[1, 2, 3, 4, 5])
    assert {(r.game_points, r.games_won, r.net_spread) for r in standings.rows[1:4]} == {(6, 3, 10)}
    assert order(standings) == [d, a, b, c, e]
    assert ranks(standings) == {d: 1, a: 2, b: 3, c: 4, e: 5}


def circle(playoffs: tuple[Playoff, ...] = (), ratio: int = 4) -> Standings:
    """Three entries with equal records: 10 beat 20, 20 beat 30, 30 beat 10; one qualifier.

    Their spreads against each other differ (+2, +3, -5), which counts only between two.
    """
    lines = games((1, 10, 20, 5), (2, 20, 30, 8), (3, 30, 10, 3))
    lines += [solo(30, 1, 2, 17), solo(10, 2, 2, 15), solo(20, 3, 2, 12)]
    lines += [solo(10, 4, 0, minus=17), solo(20, 4, 0, minus=15), solo(30, 4, 0, minus=12)]
    return compute_standings(
        lines=lines, entrants=[10, 20, 30], qualifier_ratio=ratio, playoffs=playoffs
    )


def test_a_circle_of_head_to_head_results_stays_tied_across_the_cut() -> None:
    standings = circle()
    assert ranks(standings) == {10: 1, 20: 1, 30: 1}
    assert all(r.tied and r.playoff_needed and not r.qualifies for r in standings.rows)
    assert (standings.qualifiers, standings.cut_straddled) == (1, True)
    assert standings.cut_tie == (10, 20, 30)
    assert standings.high_non_qualifier is None


def test_head_to_head_among_four_is_not_repeated_on_a_pair_it_leaves_level() -> None:
    # Round robin of 4 > 3, 4 > 2, 1 > 4, 3 > 2, 3 > 1, 2 > 1, all by 5: wins among the group
    # 2, 2, 1, 1. 4 beat 3 and 2 beat 1, but the rule as written leaves each pair tied.
    lines = games((1, 4, 3, 5), (1, 2, 1, 5), (2, 4, 2, 5), (2, 3, 1, 5))
    lines += games((3, 1, 4, 5), (3, 3, 2, 5))
    lines += [solo(4, 4, 0, minus=5), solo(3, 4, 0, minus=5), solo(2, 4, 2, 5), solo(1, 4, 2, 5)]
    standings = compute_standings(lines=lines, entrants=[1, 2, 3, 4])
    assert {record(r) for r in standings.rows} == {(4, 2, 0, 10)}
    assert ranks(standings) == {3: 1, 4: 1, 1: 3, 2: 3}


def test_three_tied_apply_no_head_to_head_unless_every_pair_met() -> None:
    # 1 beat 2 and 2 beat 3, but 1 and 3 never met: wins among them would wrongly drop 3.
    lines = games((1, 1, 2, 5), (1, 3, 5, 5), (1, 4, 6, 50))
    lines += games((2, 2, 3, 5), (2, 4, 1, 5), (2, 5, 6, 50))
    standings = compute_standings(lines=lines, entrants=range(1, 7))
    assert ranks(standings) == {4: 1, 5: 2, 1: 3, 2: 3, 3: 3, 6: 6}
    assert not any(r.playoff_needed for r in standings.rows)


# --- the cut ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entrants", "ratio", "qualifiers"),
    [(108, 4, 27), (132, 4, 33), (60, 4, 15), (120, 4, 30), (125, 4, 32), (10, 3, 4), (0, 4, 0)]
    + [(n, 4, 31) for n in (121, 122, 123, 124)]
    + [(108, 0, 0)],
)
def test_qualifier_count_is_one_in_ratio_rounded_up(entrants: int, ratio: int, qualifiers: int):
    assert qualifier_count(entrants, ratio) == qualifiers


def cut_event(ratio: int = 4, playoffs: tuple[Playoff, ...] = ()) -> Standings:
    """Eight entrants: 1 alone on top, then ties {2, 3}, {4, 5}, 8 alone, then {6, 7}.

    No tied pair met, so only a playoff can separate them.
    """
    lines = games((1, 1, 5, 40), (1, 2, 6, 10), (1, 3, 7, 10), (1, 4, 8, 5))
    lines += games((2, 1, 4, 40), (2, 2, 7, 10), (2, 3, 6, 10), (2, 5, 8, 5))
    return compute_standings(
        lines=lines, entrants=range(1, 9), qualifier_ratio=ratio, playoffs=playoffs
    )


def test_a_tie_across_the_cut_needs_a_playoff_and_other_ties_do_not() -> None:
    standings = cut_event()
    assert order(standings) == [1, 2, 3, 4, 5, 8, 6, 7]
    assert [r.rank for r in standings.rows] == [1, 2, 2, 4, 4, 6, 7, 7]
    assert [r.playoff_needed for r in standings.rows] == [False, True, True] + [False] * 5
    assert [r.entry_id for r in standings.rows if r.qualifies] == [1]
    assert (standings.qualifiers, standings.cut_straddled, standings.cut_tie) == (2, True, (2, 3))
    assert standings.high_non_qualifier is None


def test_an_entered_playoff_decides_the_cut() -> None:
    standings = cut_event(playoffs=(Playoff(winner_id=3, loser_id=2),))
    assert order(standings)[:3] == [1, 3, 2]
    assert [r.rank for r in standings.rows[:3]] == [1, 2, 3]
    assert [r.entry_id for r in standings.rows if r.qualifies] == [1, 3]
    assert not any(r.playoff_needed for r in standings.rows)
    assert (standings.cut_straddled, standings.cut_tie) == (False, ())
    assert standings.high_non_qualifier == 2
    assert standings.unused_playoffs == ()


def test_a_tie_just_below_a_decided_cut_has_no_single_high_non_qualifier() -> None:
    standings = cut_event(ratio=3)  # 3 qualifiers: 1, 2 and 3; then 4 and 5 tie
    assert [r.entry_id for r in standings.rows if r.qualifies] == [1, 2, 3]
    assert not standings.cut_straddled
    assert standings.high_non_qualifier is None


def test_a_tie_lower_down_can_straddle_a_larger_cut() -> None:
    standings = cut_event(ratio=2)  # 4 qualifiers: the cut falls inside {4, 5}
    assert standings.cut_tie == (4, 5)
    assert [r.entry_id for r in standings.rows if r.playoff_needed] == [4, 5]
    assert [r.entry_id for r in standings.rows if r.qualifies] == [1, 2, 3]


def test_no_cut_when_the_ratio_is_zero() -> None:
    standings = circle(ratio=0)
    assert ranks(standings) == {10: 1, 20: 1, 30: 1}
    assert standings.qualifiers == 0
    assert not any(r.qualifies or r.playoff_needed for r in standings.rows)
    assert (standings.cut_straddled, standings.high_non_qualifier) == (False, None)


def test_a_playoff_chain_orders_a_three_way_tie_step_by_step() -> None:
    one_game = circle((Playoff(10, 20),))  # 30 has not played off yet: nothing is decided
    assert ranks(one_game) == {10: 1, 20: 1, 30: 1} and one_game.cut_straddled
    two_games = circle((Playoff(10, 20), Playoff(10, 30)))
    assert ranks(two_games) == {10: 1, 20: 2, 30: 2}
    assert [r.qualifies for r in two_games.rows] == [True, False, False]
    assert not two_games.cut_straddled and two_games.high_non_qualifier is None
    three_games = circle((Playoff(30, 20), Playoff(10, 20), Playoff(10, 30)))
    assert order(three_games) == [10, 30, 20] and three_games.high_non_qualifier == 30


def test_a_circle_of_playoff_results_leaves_the_tie() -> None:
    standings = circle((Playoff(10, 20), Playoff(20, 30), Playoff(30, 10)))
    assert ranks(standings) == {10: 1, 20: 1, 30: 1} and standings.cut_straddled


def test_a_playoff_between_entries_not_tied_changes_nothing_and_is_reported() -> None:
    stray = Playoff(winner_id=8, loser_id=1)
    standings = cut_event(playoffs=(stray,))
    assert order(standings) == order(cut_event())
    assert standings.unused_playoffs == (stray,)


def test_withdrawals_count_as_entrants_for_the_cut() -> None:
    # 1..4 play both games, 5 withdrew after game 1, 6..9 started but have no verified line.
    lines = games((1, 1, 2, 9), (1, 3, 4, 8), (2, 1, 3, 7), (2, 2, 4, 6)) + [solo(5, 1, 2, 10)]
    standings = compute_standings(lines=lines, entrants=range(1, 10))
    assert standings.qualifiers == 3  # ceil(9 / 4); counting the five with lines would give 2
    assert sorted(order(standings)) == [1, 2, 3, 4, 5]
    assert row(standings, 5).games_played == 1
    assert [r.entry_id for r in standings.rows if r.qualifies] == [1, 5, 3]


def test_qualifiers_never_outnumber_the_rows() -> None:
    standings = compute_standings(lines=played(1, 1, 2, 5), entrants=range(1, 11))
    assert standings.qualifiers == 2  # ceil(10 / 4) = 3, but only two entries have played
    assert all(r.qualifies for r in standings.rows)
    assert standings.high_non_qualifier is None


# --- bad input --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "entrants", "playoffs", "message"),
    [
        (played(1, 1, 9, 5), [1, 2, 3], (), "opponent 9 is not an entrant"),
        ([solo(7, 1, 2, 10)], [1, 2], (), "entry 7 is not an entrant"),
        ([*played(1, 1, 2, 5), solo(1, 1, 2, 10)], [1, 2], (), "entry 1 has two card lines"),
        ([], [1, 2, 1], (), "entrants lists entries more than once: [1]"),
        ([], [1, 2], (Playoff(1, 3),), "playoff entry 3 is not among the entrants"),
    ],
)
def test_bad_input_is_refused_with_a_message(lines, entrants, playoffs, message) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        compute_standings(lines=lines, entrants=entrants, playoffs=playoffs)


def test_malformed_lines_playoffs_and_ratios_are_refused() -> None:
    with pytest.raises(ValueError, match="its own opponent"):
        compute_standings(lines=[Line(1, 1, 2, 5, 0, 1, True)], entrants=[1, 2])
    with pytest.raises(ValueError, match="minus must be 0 or more"):
        compute_standings(lines=[Line(1, 1, 0, 0, -5, 2, False)], entrants=[1, 2])
    with pytest.raises(ValueError, match="a playoff needs two entries"):
        Playoff(4, 4)
    with pytest.raises(ValueError, match="qualifier ratio"):
        compute_standings(lines=[], entrants=[1], qualifier_ratio=-1)


# --- properties on small random events --------------------------------------------------------


def round_robin(ids: list[int]) -> list[list[int]]:
    """Each game's field with every pair meeting once: tables two by two, any sit-out last."""
    seats: list[int | None] = [*ids, None] if len(ids) % 2 else list(ids)
    fields = []
    for _ in range(len(seats) - 1):
        tables = [(seats[i], seats[-1 - i]) for i in range(len(seats) // 2)]
        full = [p for table in tables if None not in table for p in table]
        fields.append(full + [p for p in ids if p not in full])
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return fields


@st.composite
def events(draw: st.DrawFn, with_playoffs: bool = True) -> dict:
    """A small qualifying round: a round robin (so tied groups have all met) or random pairings
    (repeat meetings allowed) with withdrawals mid-round; few distinct spreads so records tie
    often; entrants with no lines."""
    everyone_meets = draw(st.booleans())
    ids = draw(st.lists(st.integers(1, 60), min_size=2, max_size=8, unique=True))
    idle = draw(st.lists(st.integers(61, 70), max_size=2, unique=True))
    if everyone_meets:
        fields = round_robin(ids[:6])
    else:
        games = draw(st.integers(1, 4))
        last_game = {entry: draw(st.integers(1, games)) for entry in ids}
        active = [[e for e in ids if last_game[e] >= game] for game in range(1, games + 1)]
        fields = [draw(st.permutations(field)) for field in active]
    spreads = draw(st.sampled_from([(5,), (1, 5), (1, 2, 5, 31)]))
    lines: list[Line] = []
    for game, field in enumerate(fields, 1):
        for a, b in zip(field[::2], field[1::2], strict=False):
            winner, loser = (a, b) if draw(st.booleans()) else (b, a)
            lines += played(game, winner, loser, draw(st.sampled_from(spreads)))
        if len(field) % 2:
            lines.append(Line(field[-1], game, 2, draw(st.sampled_from(spreads)), 0, None, True))
    pairs = st.tuples(st.sampled_from(ids), st.sampled_from(ids)).filter(lambda p: p[0] != p[1])
    playoffs = draw(st.lists(pairs, max_size=4)) if with_playoffs else []
    return {
        "lines": lines,
        "entrants": ids + idle,
        "qualifier_ratio": draw(st.sampled_from([0, 1, 2, 3, 4])),
        "playoffs": [Playoff(winner, loser) for winner, loser in playoffs],
    }


@given(events())
def test_rows_follow_the_record_and_ranks_are_competition_ranks(event: dict) -> None:
    rows = compute_standings(**event).rows
    for above, below in zip(rows, rows[1:], strict=False):
        assert record(above) >= record(below)
        assert above.rank <= below.rank
    for r in rows:
        same = [other for other in rows if other.rank == r.rank]
        # contiguous, and the shared rank is the first position the group holds
        assert list(rows[r.rank - 1 : r.rank - 1 + len(same)]) == same
        assert r.tied == (len(same) > 1)
        assert [o.entry_id for o in same] == sorted(o.entry_id for o in same)


@given(events())
def test_every_entrant_with_lines_appears_once(event: dict) -> None:
    standings = compute_standings(**event)
    counted = Counter(r.entry_id for r in standings.rows)
    assert counted == Counter({line.entry_id for line in event["lines"]})
    assert all(
        r.games_played == sum(1 for x in event["lines"] if x.entry_id == r.entry_id)
        for r in standings.rows
    )


@given(events(), st.randoms(use_true_random=False))
def test_the_order_of_the_input_does_not_matter(event: dict, rng) -> None:
    shuffled = dict(event)
    for key in ("lines", "entrants", "playoffs"):
        shuffled[key] = rng.sample(event[key], len(event[key]))
    assert compute_standings(**shuffled) == compute_standings(**event)


@given(events())
def test_playoffs_only_ever_lift_their_winners(event: dict) -> None:
    standings = compute_standings(**event)
    rank = ranks(standings)
    unused = set(standings.unused_playoffs)
    for playoff in event["playoffs"]:
        if playoff not in unused:
            assert rank[playoff.winner_id] <= rank[playoff.loser_id]
    without = compute_standings(**{**event, "playoffs": []})
    assert [record(r) for r in standings.rows] == [record(r) for r in without.rows]


@given(events(with_playoffs=False))
def test_a_playoff_separates_the_two_it_was_played_between(event: dict) -> None:
    rows = compute_standings(**event).rows
    shared = Counter(r.rank for r in rows)
    for rank in (rank for rank, count in shared.items() if count == 2):
        low, high = sorted(r.entry_id for r in rows if r.rank == rank)
        after = ranks(compute_standings(**{**event, "playoffs": [Playoff(high, low)]}))
        assert (after[high], after[low]) == (rank, rank + 1)


def brute_force(lines: list[Line], entrants: list[int], ratio: int) -> list[Row]:
    """The rows, worked out entry by entry from the rules as written, with no sorting."""
    entries = {line.entry_id for line in lines}
    mine = {e: [line for line in lines if line.entry_id == e] for e in entries}
    totals = {
        e: (
            sum(x.game_points for x in mine[e]),
            sum(x.won for x in mine[e]),
            sum(x.plus - x.minus for x in mine[e]),
            sum(x.plus for x in mine[e]),
        )
        for e in entries
    }

    def between(a: int, b: int) -> list[Line]:
        return [x for x in mine[a] if x.opponent_id == b]

    def head_to_head(e: int, group: list[int]) -> tuple[int, ...]:
        others = [o for o in group if o != e]
        if not all(between(a, b) or between(b, a) for a in group for b in group if a != b):
            return ()
        won = sum(x.won for o in others for x in between(e, o))
        net = sum(x.plus - x.minus for o in others for x in between(e, o))
        return (won, net) if len(group) == 2 else (won,)

    rank = {}
    for e in entries:
        group = [o for o in entries if totals[o] == totals[e]]
        better = sum(1 for o in entries if totals[o] > totals[e])
        ahead = sum(1 for o in group if head_to_head(o, group) > head_to_head(e, group))
        rank[e] = 1 + better + ahead
    q = min(0 if ratio == 0 else math.ceil(len(entrants) / ratio), len(entries))
    rows = []
    for e in entries:
        last = rank[e] - 1 + sum(1 for o in entries if rank[o] == rank[e])
        gp, won, net, plus = totals[e]
        minus = sum(x.minus for x in mine[e])
        cut = (last > rank[e], rank[e] <= q < last, last <= q)  # tied, playoff needed, qualifies
        rows.append(Row(rank[e], e, gp, won, len(mine[e]), net, plus, minus, *cut))
    return sorted(rows, key=lambda r: (r.rank, r.entry_id))


@settings(max_examples=300)
@given(events(with_playoffs=False))
def test_standings_agree_with_a_brute_force_recomputation(event: dict) -> None:
    standings = compute_standings(**event)
    expected = brute_force(event["lines"], event["entrants"], event["qualifier_ratio"])
    assert list(standings.rows) == expected
    ratio = event["qualifier_ratio"]
    q = min(len(expected), math.ceil(len(event["entrants"]) / ratio) if ratio else 0)
    assert standings.qualifiers == q
    straddling = [r.entry_id for r in expected if r.playoff_needed]
    assert (standings.cut_straddled, standings.cut_tie) == (bool(straddling), tuple(straddling))
    just_below = [r.entry_id for r in expected if r.rank == q + 1]
    alone = q > 0 and len(just_below) == 1
    assert standings.high_non_qualifier == (just_below[0] if alone else None)
