"""Qualifying-round pairing: the rules every game must keep, checked from the pairings alone.

Every game: each active player seated exactly once or sitting out; one sit-out exactly when the
field is odd, chosen among the players who have sat out least; no pair over the meeting cap.
Whole rounds: the pairing never paints later games into a corner (a field that was paired once
can always be paired again), checked against brute force on small fields.
"""

from __future__ import annotations

import random
import statistics
from collections import Counter
from collections.abc import Iterator, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.core.pairing import (
    GamePairing,
    PairingImpossible,
    pair_game,
    schedule_feasibility,
)


def examples(count: int) -> settings:
    """Whole rounds take longer than Hypothesis's default deadline allows for one example."""
    return settings(max_examples=count, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def meetings(history: Sequence[GamePairing]) -> Counter[frozenset[int]]:
    return Counter(frozenset(table) for game in history for table in game.tables)


def assert_valid_game(
    game: GamePairing, active: Sequence[int], history: Sequence[GamePairing], max_meetings: int
) -> None:
    seated = [player for table in game.tables for player in table]
    everyone = seated + ([game.sit_out] if game.sit_out is not None else [])
    assert sorted(everyone) == sorted(active), "each active player exactly once"
    assert all(len(table) == 2 and table[0] != table[1] for table in game.tables)
    assert len(game.tables) == len(active) // 2, "tables 1..T, none empty"
    assert (game.sit_out is not None) == (len(active) % 2 == 1)
    if game.sit_out is not None:
        sat = Counter(past.sit_out for past in history)
        assert sat[game.sit_out] == min(sat[p] for p in active), "a fairer sit-out was due"
    before = meetings(history)
    over = [table for table in game.tables if before[frozenset(table)] >= max_meetings]
    assert not over, f"meetings over the cap: {over}"


def play_round(
    players: int,
    games: int,
    seed: int,
    *,
    max_meetings: int = 1,
    mode: str = "random",
    churn: Sequence[tuple[int, int]] = (),
    stop_when_impossible: bool = False,
) -> list[GamePairing]:
    """Pair a whole round, checking each game; churn[g] = (withdrawals, late entries) before g.

    A field that just changed may leave no schedule: with ``stop_when_impossible`` the round
    ends there. A field paired before and unchanged since must always be pairable again.
    """
    rng = random.Random(seed)
    active, next_id = list(range(1, players + 1)), players + 1
    history: list[GamePairing] = []
    for game in range(games):
        leaving, joining = churn[game] if game < len(churn) else (0, 0)
        leaving = min(leaving, len(active) - 2)
        for _ in range(leaving):
            active.remove(rng.choice(active))
        active += range(next_id, next_id + joining)
        next_id += joining
        records = {p: (rng.randint(0, 2 * game), rng.randint(-99, 99)) for p in active}
        try:
            pairing = pair_game(
                active=active,
                history=history,
                games_remaining=games - game,
                seed=seed,
                max_meetings=max_meetings,
                mode=mode,
                records=records,
            )
        except PairingImpossible:
            if stop_when_impossible and (leaving or joining):
                return history
            raise
        assert_valid_game(pairing, active, history, max_meetings)
        history.append(pairing)
    return history


# Complete round robins: the tight cases where every game must be planned to the end.


@pytest.mark.parametrize(
    ("players", "games"), [(2, 1), (3, 3), (4, 3), (8, 7), (9, 9), (10, 9), (12, 11), (16, 15)]
)
@pytest.mark.parametrize("mode", ["random", "standings"])
def test_complete_round_robin_meets_everyone_once(players: int, games: int, mode: str) -> None:
    for seed in range(3):
        history = play_round(players, games, seed, mode=mode)
        pairs = meetings(history)
        assert len(pairs) == players * (players - 1) // 2 and set(pairs.values()) == {1}
        if players % 2:
            assert sorted(game.sit_out for game in history) == list(range(1, players + 1))


def test_double_round_robin_meets_twice_and_alternates_first_deal() -> None:
    history = play_round(6, 10, seed=5, max_meetings=2)
    assert set(meetings(history).values()) == {2}
    firsts: dict[frozenset[int], list[int]] = {}
    for game in history:
        for table in game.tables:
            firsts.setdefault(frozenset(table), []).append(table[0])
    assert all(first != second for first, second in firsts.values())


@pytest.mark.parametrize("mode", ["random", "standings"])
def test_tight_round_survives_a_replaced_player(mode: str) -> None:
    """10 players, 9 games: after game 3 one withdraws and a late entry takes the place."""
    for seed in range(8):
        churn = [(0, 0)] * 3 + [(1, 1)]
        history = play_round(10, 9, seed, mode=mode, churn=churn)
        assert max(meetings(history).values()) == 1


def test_tight_round_survives_a_withdrawal_into_an_odd_field() -> None:
    for seed in range(8):
        history = play_round(12, 11, seed, churn=[(0, 0)] * 4 + [(1, 0)])
        assert all(game.sit_out is not None for game in history[4:])


# Random fields with withdrawals and late entries.


@st.composite
def rounds(draw: st.DrawFn, min_players: int, max_players: int, max_games: int) -> tuple:
    players = draw(st.integers(min_players, max_players))
    games = draw(st.integers(1, max_games))
    changes = st.tuples(st.integers(0, 2), st.integers(0, 2))
    churn = draw(st.lists(st.one_of(st.just((0, 0)), changes), max_size=games))
    return players, games, churn, draw(st.integers(0, 2**32))


@examples(40)
@given(rounds(46, 300, 22), st.sampled_from(["random", "standings"]))
def test_large_fields_with_churn_never_repeat(round_: tuple, mode: str) -> None:
    """Fields well above twice the games: every game is pairable whatever came before."""
    players, games, churn, seed = round_
    play_round(players, games, seed, mode=mode, churn=churn)


@examples(60)
@given(rounds(2, 24, 9), st.sampled_from(["random", "standings"]))
def test_small_fields_with_churn_keep_every_rule(round_: tuple, mode: str) -> None:
    players, games, churn, seed = round_
    games = min(games, players - 1 if players % 2 == 0 else players)
    play_round(players, games, seed, mode=mode, churn=churn, stop_when_impossible=True)


def test_late_entries_sit_out_before_anyone_sits_out_twice() -> None:
    early = [GamePairing(tables=((2, 3), (4, 5)), sit_out=1)]
    early.append(GamePairing(tables=((1, 4), (3, 5)), sit_out=2))
    sat_out = Counter()
    for seed in range(40):
        game = pair_game(active=[1, 2, 3, 4, 5, 6, 7], history=early, games_remaining=4, seed=seed)
        sat_out[game.sit_out] += 1
    assert set(sat_out) <= {3, 4, 5, 6, 7} and {6, 7} <= set(sat_out)
    # Five more games would need 1..5 (no one else left to meet) all to meet 6, who sits once.
    with pytest.raises(PairingImpossible, match="Players 1, 2, 3, 4 and 5 have no opponents"):
        pair_game(active=[1, 2, 3, 4, 5, 6, 7], history=early, games_remaining=5, seed=1)


# Against brute force: a pairing is given exactly when a full schedule exists, and after it the
# rest of the schedule still exists.


def perfect_matchings(players: list[int]) -> Iterator[list[tuple[int, int]]]:
    if not players:
        yield []
        return
    first, rest = players[0], players[1:]
    for i, other in enumerate(rest):
        for matching in perfect_matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *matching]


def schedule_exists(
    active: list[int], history: list[GamePairing], games: int, max_meetings: int
) -> bool:
    met = meetings(history)
    sat = {p: sum(game.sit_out == p for game in history) for p in active}

    def search(left: int) -> bool:
        if left == 0:
            return True
        due = [p for p in active if sat[p] == min(sat.values())] if len(active) % 2 else [None]
        for sit_out in due:
            seated = [p for p in active if p != sit_out]
            for matching in perfect_matchings(seated):
                pairs = [frozenset(table) for table in matching]
                if any(met[pair] >= max_meetings for pair in pairs):
                    continue
                met.update(pairs)
                if sit_out is not None:
                    sat[sit_out] += 1
                found = search(left - 1)
                met.subtract(pairs)
                if sit_out is not None:
                    sat[sit_out] -= 1
                if found:
                    return True
        return False

    return search(games)


@st.composite
def small_situations(draw: st.DrawFn) -> tuple:
    """A short random history on one field, then a possibly different field to pair."""
    first_field = list(range(1, draw(st.integers(2, 7)) + 1))
    history = []
    for _ in range(draw(st.integers(0, 4))):
        order = draw(st.permutations(first_field))
        sit_out = order.pop() if len(order) % 2 else None
        history.append(
            GamePairing(tables=tuple(zip(order[::2], order[1::2], strict=True)), sit_out=sit_out)
        )
    kept = draw(st.lists(st.sampled_from(first_field), unique=True, min_size=1))
    active = sorted(kept + list(range(10, 10 + draw(st.integers(0, 2)))))
    return active, history, draw(st.integers(1, 4)), draw(st.sampled_from([1, 1, 2]))


@examples(250)
@given(small_situations(), st.integers(0, 1000))
def test_pairing_is_given_exactly_when_a_schedule_exists(situation: tuple, seed: int) -> None:
    active, history, games, max_meetings = situation
    if len(active) > 6:
        games = min(games, 3)  # keeps the brute force quick
    exists = len(active) >= 2 and schedule_exists(active, history, games, max_meetings)
    try:
        game = pair_game(
            active=active,
            history=history,
            games_remaining=games,
            seed=seed,
            max_meetings=max_meetings,
        )
    except PairingImpossible:
        assert not exists
        return
    assert exists
    assert_valid_game(game, active, history, max_meetings)
    assert schedule_exists(active, [*history, game], games - 1, max_meetings)


# Randomness and reproducibility.


def test_same_inputs_and_seed_give_the_same_pairing() -> None:
    history = play_round(40, 3, seed=9)
    active = list(range(1, 38))
    first = pair_game(active=active, history=history, games_remaining=5, seed=77)
    again = pair_game(active=active[::-1], history=history, games_remaining=5, seed=77)
    assert first == again


def test_different_seeds_give_different_pairings() -> None:
    active = list(range(1, 51))
    pairings = {pair_game(active=active, history=[], games_remaining=9, seed=s) for s in range(5)}
    assert len(pairings) == 5


def rank_correlation(values: Sequence[int]) -> float:
    """Spearman correlation of the values with their position: near 0 when unrelated."""
    ranks = {value: rank for rank, value in enumerate(sorted(values))}
    return statistics.correlation(range(len(values)), [ranks[v] for v in values])


@pytest.mark.parametrize("mode", ["random", "standings"])
def test_table_numbers_and_first_deal_follow_no_order(mode: str) -> None:
    records = {p: (p,) for p in range(1, 201)}
    game = pair_game(
        active=list(records), history=[], games_remaining=22, seed=3, mode=mode, records=records
    )
    for seat in (0, 1):
        assert abs(rank_correlation([table[seat] for table in game.tables])) < 0.3
    first_is_lower = sum(a < b for a, b in game.tables) / len(game.tables)
    assert 0.3 < first_is_lower < 0.7


# Standings mode.


def mean_rank_distance(players: int, games: int, mode: str, seed: int) -> float:
    """Play a round with random results; mean standings distance at the tables from game 3."""
    rng = random.Random(seed)
    active = list(range(1, players + 1))
    points = dict.fromkeys(active, 0)
    history: list[GamePairing] = []
    distances = []
    for game_no in range(games):
        records = {p: (points[p],) for p in active}
        game = pair_game(
            active=active,
            history=history,
            games_remaining=games - game_no,
            seed=seed,
            mode=mode,
            records=records,
        )
        assert_valid_game(game, active, history, 1)
        rank = {p: points[p] for p in active}
        above = {p: sum(rank[q] > rank[p] for q in active) for p in active}
        if game_no >= 2:
            distances += [abs(above[a] - above[b]) for a, b in game.tables]
        for table in game.tables:
            points[rng.choice(table)] += 2
        history.append(game)
    return statistics.mean(distances)


@pytest.mark.parametrize(("players", "games"), [(16, 9), (40, 9), (120, 12)])
def test_standings_mode_pairs_neighbours(players: int, games: int) -> None:
    by_standings = mean_rank_distance(players, games, "standings", seed=1)
    at_random = mean_rank_distance(players, games, "random", seed=1)
    assert by_standings < at_random / 2


def test_standings_mode_sits_out_the_lowest_ranked_player_due() -> None:
    records = {p: (p,) for p in range(1, 22)}
    game = pair_game(
        active=list(records),
        history=[],
        games_remaining=9,
        seed=4,
        mode="standings",
        records=records,
    )
    assert game.sit_out == 1
    assert (21, 20) in game.tables or (20, 21) in game.tables


# Impossible schedules and bad input.


def test_schedule_feasibility_explains_too_many_games() -> None:
    assert schedule_feasibility(12, 22) == (
        "22 games need at least 23 players when each pair may meet once; this event has 12. "
        "Lower the number of games to 11 or fewer, or allow 2 meetings per pair."
    )
    assert schedule_feasibility(12, 22, max_meetings=2) is None


@pytest.mark.parametrize(
    ("players", "games", "feasible"),
    [
        (10, 9, True),
        (10, 10, False),
        (9, 9, True),
        (9, 10, False),
        (2, 1, True),
        (2, 2, False),
        (3, 3, True),
        (1, 1, False),
        (23, 22, True),
        (22, 22, False),
    ],
)
def test_schedule_feasibility_limits(players: int, games: int, feasible: bool) -> None:
    assert (schedule_feasibility(players, games) is None) is feasible


def test_too_many_remaining_games_is_impossible() -> None:
    with pytest.raises(PairingImpossible, match="at least 23 players.*12 players are active"):
        pair_game(active=list(range(12)), history=[], games_remaining=22, seed=1)


def test_an_odd_group_that_can_only_meet_itself_is_named() -> None:
    """Everyone of {1,2,3} has met all of {4,5,6}: another game would need odd tables."""
    cross = [((1, 4), (2, 5), (3, 6)), ((1, 5), (2, 6), (3, 4)), ((1, 6), (2, 4), (3, 5))]
    history = [GamePairing(tables=tables) for tables in cross]
    with pytest.raises(PairingImpossible, match="Players (1, 2 and 3|4, 5 and 6) can only meet"):
        pair_game(active=[1, 2, 3, 4, 5, 6], history=history, games_remaining=1, seed=1)
    game = pair_game(active=[1, 2, 3, 4, 5, 6, 7], history=history, games_remaining=1, seed=1)
    assert game.sit_out in {1, 2, 3, 4, 5, 6, 7}


def test_a_schedule_that_cannot_exist_is_proven() -> None:
    """Only triangles 1-2-3 and 4-5-6 joined by 3-4 remain: one pairing left, not two."""
    history = [
        GamePairing(tables=((1, 4), (2, 5), (3, 6))),
        GamePairing(tables=((1, 5), (2, 6), (3, 7), (4, 8))),
        GamePairing(tables=((1, 6), (2, 4), (3, 5))),
    ]
    with pytest.raises(PairingImpossible, match="every possibility was checked"):
        pair_game(active=[1, 2, 3, 4, 5, 6], history=history, games_remaining=2, seed=1)
    last = pair_game(active=[1, 2, 3, 4, 5, 6], history=history, games_remaining=1, seed=1)
    assert {frozenset(table) for table in last.tables} == {
        frozenset((1, 2)),
        frozenset((3, 4)),
        frozenset((5, 6)),
    }


def test_a_player_without_enough_new_opponents_is_named() -> None:
    """Player 6 has met 1..4; the others only met players who have since withdrawn."""
    history = [
        GamePairing(tables=((6, met), *((p, 10 + p) for p in range(1, 6) if p != met)))
        for met in (1, 2, 3, 4)
    ]
    with pytest.raises(
        PairingImpossible, match="Player 6 still has 2 games to play but only 1 active player "
    ):
        pair_game(active=[1, 2, 3, 4, 5, 6], history=history, games_remaining=2, seed=1)
    assert pair_game(active=[1, 2, 3, 4, 5, 6], history=history, games_remaining=1, seed=1)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"active": [1, 2, 2, 3]}, "player 2 more than once"),
        ({"games_remaining": 0}, "games_remaining must be at least 1"),
        ({"max_meetings": 0}, "max_meetings must be at least 1"),
        ({"mode": "swiss"}, "mode must be one of random, standings"),
        ({"mode": "standings", "records": {1: (0,)}}, r"none for \[2, 3, 4\]"),
    ],
)
def test_bad_input_is_refused_with_the_rule(changes: dict, message: str) -> None:
    arguments = {"active": [1, 2, 3, 4], "history": [], "games_remaining": 3, "seed": 1}
    with pytest.raises(ValueError, match=message) as refused:
        pair_game(**{**arguments, **changes})
    assert not isinstance(refused.value, PairingImpossible)


def test_a_game_cannot_seat_a_player_twice() -> None:
    with pytest.raises(ValueError, match="player 3 appears more than once"):
        GamePairing(tables=((1, 3), (3, 4)))
    with pytest.raises(ValueError, match="player 5 appears more than once"):
        GamePairing(tables=((1, 5),), sit_out=5)


def test_brute_force_helper_finds_and_refutes() -> None:
    """The reference used above must be able to say both yes and no."""
    assert schedule_exists([1, 2, 3, 4], [], 3, 1)
    assert not schedule_exists([1, 2, 3, 4], [], 4, 1)
    assert sum(1 for _ in perfect_matchings([1, 2, 3, 4, 5, 6])) == 15
