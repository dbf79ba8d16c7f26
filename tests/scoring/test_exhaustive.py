"""All 12,994,800 (hand, starter) pairs, as hand and as crib, against the published tables."""

from __future__ import annotations

import json
import os
from fractions import Fraction
from math import comb
from pathlib import Path

import numpy as np
import pytest

from scoring.exhaustive import PAIR_COUNT, five_card_sets, score_frequencies
from scoring.plausibility import MAX_SHOW_SCORE, POSSIBLE_SHOW_SCORES, is_possible_show_score

# The shared reference material sits beside the repository: <parent>/shared/domain/.
DISTRIBUTION = Path(__file__).resolve().parents[2].parent / "shared/domain/score-distribution.json"


@pytest.fixture(scope="module")
def frequencies() -> tuple[np.ndarray, np.ndarray]:
    return score_frequencies()


@pytest.fixture(scope="module")
def published() -> dict[str, object]:
    if not DISTRIBUTION.exists():
        message = f"published score distribution not found at {DISTRIBUTION}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"{message}: CI checks out shared/ beside the repository")
        pytest.skip(message)
    return json.loads(DISTRIBUTION.read_text())


def test_five_card_sets_are_every_set_once() -> None:
    sets = five_card_sets()
    assert sets.shape == (comb(52, 5), 5)
    assert (np.diff(sets.astype(np.int16), axis=1) > 0).all()
    # Rows in strictly increasing lexicographic order are distinct; C(52, 5) distinct sets of
    # five cards are all of them.
    codes = np.zeros(len(sets), dtype=np.int64)
    for column in range(5):
        codes = codes * 52 + sets[:, column]
    assert (np.diff(codes) > 0).all()


def test_every_pair_is_scored_once(frequencies: tuple[np.ndarray, np.ndarray]) -> None:
    hand, crib = frequencies
    assert hand.sum() == crib.sum() == PAIR_COUNT == comb(52, 4) * 48


def test_hand_and_crib_tables_match_published(
    frequencies: tuple[np.ndarray, np.ndarray], published: dict[str, object]
) -> None:
    hand, crib = frequencies
    for name, counts in (("hand", hand), ("crib", crib)):
        table = published[name]
        assert isinstance(table, dict)
        expected = [table[str(total)] for total in range(MAX_SHOW_SCORE + 1)]
        assert counts.tolist() == expected, name
    assert Fraction(int(hand @ np.arange(30)), PAIR_COUNT) == Fraction(
        str(published["hand_mean_exact"])
    )
    assert Fraction(int(crib @ np.arange(30)), PAIR_COUNT) == Fraction(
        str(published["crib_mean_exact"])
    )


def test_possible_show_scores_are_exactly_those_that_occur(
    frequencies: tuple[np.ndarray, np.ndarray],
) -> None:
    hand, crib = frequencies
    for counts in (hand, crib):
        assert {total for total in range(len(counts)) if counts[total]} == POSSIBLE_SHOW_SCORES
    assert [n for n in range(31) if not is_possible_show_score(n)] == [19, 25, 26, 27, 30]
    assert hand[29] == crib[29] == 4


def test_mean_hand_known_values(frequencies: tuple[np.ndarray, np.ndarray]) -> None:
    hand, _ = frequencies
    assert round(float(hand @ np.arange(30)) / PAIR_COUNT, 4) == 4.7692
