"""The cut and the playoff bracket: seeding, byes, advancing to a champion, finish bands, MRPs.

Player ids are seed * 100 + 7 so that a seed used where a player id belongs (or the reverse)
shows up as a wrong value instead of passing by accident.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.core.bracket import (
    Bracket,
    Cut,
    Finish,
    Match,
    advance,
    band_players,
    bracket_size,
    build_bracket,
    byes,
    cut_for,
    fill_bracket,
    finish_bands,
    finish_of,
    finishes,
    playoff_rounds_won,
    seed_order,
)
from tournaments.core.mrp import MRP_TABLES, mrp_playoff, mrp_playoff_points, mrp_qualifying


def pid(seed: int) -> int:
    return seed * 100 + 7


def field(qualifiers: int) -> list[int]:
    return [pid(seed) for seed in range(1, qualifiers + 1)]


def favourites_win(qualifiers: int) -> dict[tuple[int, int], int]:
    """Results in which the better seed wins every match.

    Written from the seeding property, not from the code under test: with the favourites
    through, round r is the standard bracket of size B / 2**(r - 1).
    """
    size = bracket_size(qualifiers)
    results = {}
    rounds = size.bit_length() - 1
    for round_ in range(1, rounds + 1):
        order = seed_order(size >> (round_ - 1))
        for slot in range(len(order) // 2):
            best, worst = order[2 * slot], order[2 * slot + 1]
            if worst <= qualifiers:  # round 1 byes take no result
                results[(round_, slot)] = pid(best)
    return results


# --- the cut ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entrants", "cut"),
    [
        pytest.param(108, Cut(108, 27, 32, 5), id="108 entrants"),
        pytest.param(132, Cut(132, 33, 64, 31), id="132 entrants"),
        pytest.param(60, Cut(60, 15, 16, 1), id="60 entrants"),
        pytest.param(121, Cut(121, 31, 32, 1), id="121 rounds up"),
        pytest.param(124, Cut(124, 31, 32, 1), id="124 entrants"),
        pytest.param(64, Cut(64, 16, 16, 0), id="full bracket"),
    ],
)
def test_acc_cut_examples(entrants: int, cut: Cut) -> None:
    assert cut_for(entrants) == cut
    assert (bracket_size(cut.qualifiers), byes(cut.qualifiers)) == (cut.lines, cut.byes)


def test_the_ratio_is_a_setting() -> None:
    assert cut_for(100, ratio=3) == Cut(100, 34, 64, 30)


@pytest.mark.parametrize("entrants", [108, 132, 60])
def test_the_byes_of_the_acc_examples_go_to_the_top_qualifiers(entrants: int) -> None:
    cut = cut_for(entrants)
    bracket = build_bracket(field(cut.qualifiers))
    bye_seeds = sorted(m.seed_a for m in bracket.first_round if m.bye)
    assert bye_seeds == list(range(1, cut.byes + 1))
    played = [m for m in bracket.first_round if not m.bye]
    assert 2 * len(played) == cut.qualifiers - cut.byes


def test_no_qualifiers_no_bracket() -> None:
    with pytest.raises(ValueError, match="at least one qualifier"):
        bracket_size(0)
    with pytest.raises(ValueError, match="no qualifiers"):
        cut_for(0)


@pytest.mark.parametrize(
    ("qualifiers", "size"), [(1, 1), (2, 2), (3, 4), (4, 4), (5, 8), (513, 1024)]
)
def test_bracket_size_is_the_next_power_of_two(qualifiers: int, size: int) -> None:
    assert bracket_size(qualifiers) == size


# --- seeding ----------------------------------------------------------------------------------


def test_standard_seed_orders() -> None:
    assert seed_order(1) == (1,)
    assert seed_order(2) == (1, 2)
    assert seed_order(4) == (1, 4, 2, 3)
    assert seed_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert seed_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)


def test_with_the_favourites_through_each_round_is_the_standard_bracket_of_half_the_size() -> None:
    bracket = fill_bracket(build_bracket(field(16)), favourites_win(16))
    seeds = [[(m.seed_a, m.seed_b) for m in matches] for matches in bracket.matches]
    assert seeds[1] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert seeds[2] == [(1, 4), (2, 3)]
    assert seeds[3] == [(1, 2)]


@pytest.mark.parametrize("size", [1 << k for k in range(11)])
def test_the_top_seeds_are_spread_as_far_apart_as_possible(size: int) -> None:
    line = {seed: i for i, seed in enumerate(seed_order(size))}
    assert sorted(line) == list(range(1, size + 1))
    blocks = 1
    while blocks <= size:
        # Seeds 1..k sit in k different blocks of size / k lines: they meet no earlier than
        # the round that joins those blocks (1 and 2 only in the final).
        assert len({line[s] * blocks // size for s in range(1, blocks + 1)}) == blocks
        blocks *= 2


@pytest.mark.parametrize("size", [0, 3, 6, 12, -4])
def test_a_bracket_size_must_be_a_power_of_two(size: int) -> None:
    with pytest.raises(ValueError, match="power of two"):
        seed_order(size)


@pytest.mark.parametrize(("low", "high"), [(2, 256), (257, 512), (513, 768), (769, 1024)])
def test_every_bracket_from_2_to_1024_qualifiers(low: int, high: int) -> None:
    # The favourites win throughout, so the later rounds are filled too.
    for qualifiers in range(low, high + 1):
        size, players = bracket_size(qualifiers), field(qualifiers)
        bracket = build_bracket(players, favourites_win(qualifiers))
        first = bracket.first_round
        where = f"{qualifiers} qualifiers"
        assert bracket.size == size and bracket.rounds == size.bit_length() - 1, where
        assert len(first) == size // 2, where
        assert all(m.seed_a + m.seed_b == size + 1 for m in first), where
        placed = [p for m in first for p in (m.player_a, m.player_b) if p is not None]
        assert sorted(placed) == players, where
        assert all(m.player_a == pid(m.seed_a) for m in first), where
        assert all(m.bye or m.player_b == pid(m.seed_b) for m in first), where
        bye_seeds = sorted(m.seed_a for m in first if m.bye)
        assert bye_seeds == list(range(1, byes(qualifiers) + 1)), where
        assert all((m.player_b is None) == m.bye for m in first), where
        line = {p: i for i, p in enumerate(p for m in first for p in (m.player_a, m.player_b))}
        assert (line[pid(1)] < size // 2) != (line[pid(2)] < size // 2), where
        for matches in bracket.matches[1:]:
            assert all(m.ready for m in matches), where
        assert bracket.champion == pid(1), where
        final = bracket.matches[-1][0]
        assert (final.seed_a, final.seed_b) == (1, 2), where


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=200), st.randoms(use_true_random=False))
def test_any_results_lead_to_one_champion_and_every_finish(qualifiers: int, rnd) -> None:
    bracket = build_bracket(field(qualifiers))
    for round_ in range(bracket.rounds):
        matches = bracket.matches[round_]
        assert all(m.ready or m.bye for m in matches)
        results = bracket.results
        for m in matches:
            if not m.bye:
                results[(m.round, m.slot)] = rnd.choice((m.player_a, m.player_b))
        bracket = fill_bracket(bracket, results)
    assert bracket.champion is not None
    done = finishes(bracket)
    assert sorted(done) == field(qualifiers)
    counts: dict[tuple[int, int], int] = {}
    for finish in done.values():
        counts[(finish.first, finish.last)] = counts.get((finish.first, finish.last), 0) + 1
    assert counts == band_players(qualifiers)


# --- advancing --------------------------------------------------------------------------------


def test_advancing_through_a_bracket_with_byes_to_a_champion() -> None:
    # Five qualifiers on eight lines: seeds 1-3 have byes, 4 plays 5.
    bracket = build_bracket(field(5))
    assert [(m.seed_a, m.seed_b, m.bye) for m in bracket.first_round] == [
        (1, 8, True),
        (4, 5, False),
        (2, 7, True),
        (3, 6, True),
    ]
    assert [m.winner for m in bracket.first_round] == [pid(1), None, pid(2), pid(3)]
    semi_top, semi_bottom = bracket.matches[1]
    assert (semi_top.player_a, semi_top.player_b) == (pid(1), None)
    assert (semi_bottom.player_a, semi_bottom.player_b) == (pid(2), pid(3))
    assert bracket.next_slot(1, 1) == (2, 0, "b")
    assert bracket.next_slot(2, 1) == (3, 0, "b")

    bracket = advance(bracket, 1, 1, pid(5))
    assert bracket.match(2, 0)[2:6] == (1, 5, pid(1), pid(5))
    bracket = advance(bracket, 2, 1, pid(3))
    bracket = advance(bracket, 2, 0, pid(5))
    final = bracket.match(3, 0)
    assert (final.player_a, final.player_b, final.seed_a, final.seed_b) == (pid(5), pid(3), 5, 3)
    assert bracket.champion is None
    bracket = advance(bracket, 3, 0, pid(3))
    assert bracket.champion == pid(3)
    assert finishes(bracket) == {
        pid(3): Finish(1, 1, 3),
        pid(5): Finish(2, 2, 2),
        pid(1): Finish(3, 4, 1),  # had a bye, lost in round 2
        pid(2): Finish(3, 4, 1),
        pid(4): Finish(5, 8, 0),
    }
    assert bracket.results == {(1, 1): pid(5), (2, 1): pid(3), (2, 0): pid(5), (3, 0): pid(3)}


def test_the_final_has_no_next_slot() -> None:
    bracket = build_bracket(field(4))
    with pytest.raises(ValueError, match="final"):
        bracket.next_slot(2, 0)
    assert bracket.next_slot(1, 0) == (2, 0, "a")


def test_a_single_qualifier_is_champion_without_playing() -> None:
    bracket = build_bracket([pid(1)])
    assert (bracket.rounds, bracket.first_round, bracket.champion) == (0, (), pid(1))
    assert finishes(bracket) == {pid(1): Finish(1, 1, 0)}


def test_results_that_cannot_stand_are_refused() -> None:
    bracket = build_bracket(field(5))
    with pytest.raises(ValueError, match="bye"):
        advance(bracket, 1, 0, pid(1))
    with pytest.raises(ValueError, match="not in the match"):
        advance(bracket, 1, 1, pid(1))
    with pytest.raises(ValueError, match="both its players"):
        advance(bracket, 2, 0, pid(1))
    with pytest.raises(ValueError, match="slots 0..1"):
        advance(bracket, 2, 2, pid(1))
    with pytest.raises(ValueError, match="round must be 1..3"):
        fill_bracket(bracket, {(4, 0): pid(1)})
    with pytest.raises(ValueError, match="more than once: \\[107\\]"):
        build_bracket([pid(1), pid(2), pid(1)])


def test_a_decided_match_is_corrected_only_with_the_full_results() -> None:
    bracket = advance(build_bracket(field(4)), 1, 0, pid(4))
    assert advance(bracket, 1, 0, pid(4)) == bracket  # the same result again changes nothing
    with pytest.raises(ValueError, match="already decided"):
        advance(bracket, 1, 0, pid(1))
    bracket = advance(bracket, 1, 1, pid(2))
    bracket = advance(bracket, 2, 0, pid(4))
    # Correcting round 1 makes the final's winner impossible, so the whole set is refused.
    with pytest.raises(ValueError, match="not in the match"):
        fill_bracket(bracket, {**bracket.results, (1, 0): pid(1)})
    corrected = fill_bracket(bracket, {(1, 0): pid(1), (1, 1): pid(2)})
    assert (corrected.match(2, 0).player_a, corrected.champion) == (pid(1), None)


def test_a_bracket_is_plain_data() -> None:
    bracket = build_bracket(field(3))
    assert isinstance(bracket, Bracket)
    assert bracket.first_round[0] == Match(1, 0, 1, 4, pid(1), None, True, pid(1))
    assert bracket.first_round[1] == Match(1, 1, 2, 3, pid(2), pid(3), False, None)


# --- finishes ---------------------------------------------------------------------------------


def test_finish_bands() -> None:
    assert finish_bands(1) == [(1, 1)]
    assert finish_bands(2) == [(1, 1), (2, 2)]
    assert finish_bands(32) == [(1, 1), (2, 2), (3, 4), (5, 8), (9, 16), (17, 32)]


def test_the_losers_of_a_round_share_its_band() -> None:
    assert finish_of(None, 5) == (1, 1)
    assert finish_of(5, 5) == (2, 2)
    assert finish_of(4, 5) == (3, 4)
    assert finish_of(1, 5) == (17, 32)
    with pytest.raises(ValueError, match="1..5"):
        finish_of(6, 5)


def test_with_byes_the_first_round_band_holds_fewer_players() -> None:
    assert band_players(27) == {
        (1, 1): 1,
        (2, 2): 1,
        (3, 4): 2,
        (5, 8): 4,
        (9, 16): 8,
        (17, 32): 11,
    }
    assert band_players(2) == {(1, 1): 1, (2, 2): 1}
    assert band_players(1) == {(1, 1): 1}


def test_rounds_won_count_a_bye() -> None:
    assert playoff_rounds_won(1, 5) == 0
    assert playoff_rounds_won(2, 5) == 1  # a bye, then a loss
    assert playoff_rounds_won(None, 5) == 5


# --- Master Rating Points ---------------------------------------------------------------------


def test_mrp_worked_example_main_12_games_champion() -> None:
    qualifying = mrp_qualifying(1, 8, 20, 12, "main")
    assert qualifying == 35
    champion = finishes(fill_bracket(build_bracket(field(8)), favourites_win(8)))[pid(1)]
    assert qualifying + mrp_playoff(champion.rounds_won, "main") == 105


def test_mrp_worked_example_main_22_games_top_half_edge() -> None:
    assert mrp_qualifying(8, 15, 30, 22, "main") == 20
    assert mrp_qualifying(9, 15, 30, 22, "main") == 5


def test_the_top_half_never_gets_less_than_the_flat_scale() -> None:
    assert mrp_qualifying(1, 8, 10, 12, "main") == 5
    assert mrp_qualifying(1, 8, 14, 12, "main") == 5
    assert mrp_qualifying(1, 8, 15, 12, "main") == 10
    assert mrp_qualifying(2, 4, 16, 12, "consolation") == 3 * (16 - 16 + 1)


def test_mrp_thresholds_are_the_published_tables() -> None:
    main, consolation = MRP_TABLES["main"], MRP_TABLES["consolation"]
    assert (main.scale, main.pscale, consolation.scale, consolation.pscale) == (5, 7, 3, 4)
    assert dict(main.thresholds) == {12: 14, 14: 17, 16: 20, 18: 22, 20: 25, 21: 26, 22: 27}
    assert dict(consolation.thresholds) == {7: 9, 8: 11, 9: 12, 10: 13, 12: 16}
    for games, threshold in main.thresholds.items():
        assert mrp_qualifying(1, 2, threshold + 3, games, "main") == 20


def test_playoff_mrp_sequences() -> None:
    assert [mrp_playoff_points(r, 7) for r in range(1, 7)] == [7, 21, 42, 70, 105, 147]
    assert [mrp_playoff(won, "consolation") for won in range(6)] == [4, 12, 24, 40, 60, 84]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param((1, 8, 20, 13, "main"), r"\[12, 14, 16, 18, 20, 21, 22\]", id="main games"),
        pytest.param((1, 8, 20, 11, "consolation"), r"\[7, 8, 9, 10, 12\]", id="consy games"),
        pytest.param((9, 8, 20, 12, "main"), "rank must be 1..8", id="rank past the cut"),
        pytest.param((1, 8, 20, 12, "satellite"), "consolation", id="unsanctioned kind"),
    ],
)
def test_mrp_refuses_what_is_not_tabled(args: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        mrp_qualifying(*args)
