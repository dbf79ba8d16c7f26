"""Every (hand, starter) pair scored at once, as hand and as crib, with NumPy.

Terms:
- pair: four hand cards and a starter, 52 choose 4 times 48 = 12,994,800 of them.
- five-card set: the five cards of a pair without saying which is the starter. Each of the
  2,598,960 sets gives five pairs, one per choice of starter, and all five share the set's
  rank multiset, so its rank points are looked up once.
- frequency table: how many pairs score each total 0..29.

The rank points come from the production table (``scoring.tables.numpy_tables``, built from
the same entries ``score_hand`` reads); flush and nobs are recomputed here from the suits with
array operations, following ``scoring.hand.flush_points`` and the nobs rule.
"""

from __future__ import annotations

import numpy as np

from scoring.tables import numpy_tables

PAIR_COUNT = 12_994_800
MAX_TOTAL = 29
_JACK_INDEX = 10  # ranks count from 0 here: ace 0 ... king 12


def five_card_sets() -> np.ndarray:
    """All C(52, 5) sets of card indices (rank-major, see ``Card.index``), ascending per row."""
    combos = np.arange(48, dtype=np.uint8).reshape(-1, 1)
    for width in range(2, 6):
        last = combos[:, -1].astype(np.int64)
        # The card in column ``width`` must leave room for the 5 - width cards after it.
        choices = np.maximum(46 + width - last, 0)
        rows = np.repeat(combos, choices, axis=0)
        offsets = np.arange(len(rows)) - np.repeat(np.cumsum(choices) - choices, choices)
        following = np.repeat(last + 1, choices) + offsets
        combos = np.hstack([rows, following.astype(np.uint8).reshape(-1, 1)])
    return combos


def score_frequencies() -> tuple[np.ndarray, np.ndarray]:
    """Frequency tables (index = total, 0..29) of all pairs scored as hand and as crib."""
    cards = five_card_sets()
    ranks = (cards >> 2).astype(np.int32)
    suits = cards & 3
    ids_by_code, points_by_id = numpy_tables()
    code = ranks[:, 0] + 13 * (
        ranks[:, 1] + 13 * (ranks[:, 2] + 13 * (ranks[:, 3] + 13 * ranks[:, 4]))
    )
    rank_points = points_by_id[ids_by_code[code]].astype(np.int16)
    same_suit = [[suits[:, i] == suits[:, j] for j in range(5)] for i in range(5)]
    jack = [ranks[:, i] == _JACK_INDEX for i in range(5)]
    all_five = same_suit[0][1] & same_suit[0][2] & same_suit[0][3] & same_suit[0][4]
    hand_counts = np.zeros(MAX_TOTAL + 1, dtype=np.int64)
    crib_counts = np.zeros(MAX_TOTAL + 1, dtype=np.int64)
    for cut in range(5):
        held = [i for i in range(5) if i != cut]
        first = held[0]
        four_flush = same_suit[first][held[1]] & same_suit[first][held[2]]
        four_flush &= same_suit[first][held[3]]
        nobs = np.zeros(len(cards), dtype=np.int16)
        for i in held:
            nobs += jack[i] & same_suit[i][cut]
        crib = rank_points + nobs + 5 * all_five
        hand = crib + 4 * (four_flush & ~all_five)
        hand_counts += np.bincount(hand, minlength=MAX_TOTAL + 1)
        crib_counts += np.bincount(crib, minlength=MAX_TOTAL + 1)
    return hand_counts, crib_counts
