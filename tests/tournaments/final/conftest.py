"""A finished small Main: 20 entrants, 5 qualifiers in an 8-line bracket (3 byes).

Seeds are qualifying ranks 1-5 with 21 - rank game points. Round 1: seed 4 beats seed 5;
round 2: seed 1 beats 4, seed 3 beats 2; the final: seed 3 beats seed 1.
"""

import pytest

from tests.factories import EntryFactory, EventFactory, UserFactory
from tests.helpers import sanction
from tournaments.core.bracket import build_bracket
from tournaments.models import Match, Playoff, PlayoffSeed, StandingsSnapshot


def _rows(entries, qualifiers):
    return [
        {
            "rank": rank,
            "entry_id": e.pk,
            "game_points": 21 - rank,
            "games_won": 0,
            "games_played": 12,
            "net_spread": 0,
            "plus_spread": 0,
            "minus_spread": 0,
            "tied": False,
            "playoff_needed": False,
            "qualifies": rank <= qualifiers,
        }
        for rank, e in enumerate(entries, start=1)
    ]


def make_playoff(event, entries, qualifiers, winners_by_seed):
    """Seeds, and Match rows as the playoff would store them, with ``winners_by_seed``
    ({(round, slot): seed}) decided."""
    StandingsSnapshot.objects.create(
        event=event,
        rows=_rows(entries, qualifiers),
        qualifiers=qualifiers,
        high_non_qualifier=entries[qualifiers] if len(entries) > qualifiers else None,
    )
    playoff = Playoff.objects.create(
        event=event,
        entrants=len(entries),
        qualifiers=qualifiers,
        high_non_qualifier=entries[qualifiers] if len(entries) > qualifiers else None,
    )
    for seed, entry in enumerate(entries[:qualifiers], start=1):
        PlayoffSeed.objects.create(playoff=playoff, seed=seed, entry=entry, qualifying_rank=seed)
    ids = [e.pk for e in entries[:qualifiers]]
    results = {key: ids[seed - 1] for key, seed in winners_by_seed.items()}
    bracket = build_bracket(ids, results)
    for matches in bracket.matches:
        for m in matches:
            decided = m.winner is not None
            Match.objects.create(
                playoff=playoff,
                round=m.round,
                slot=m.slot,
                best_of=5,
                seed_a=m.seed_a,
                seed_b=m.seed_b,
                entry_a_id=m.player_a,
                entry_b_id=m.player_b,
                bye=m.bye,
                winner_id=m.winner,
                status="decided" if decided else "waiting",
            )
    return playoff


FINISHED = {(1, 1): 4, (2, 0): 1, (2, 1): 3, (3, 0): 3}


@pytest.fixture
def finished_main():
    """Make a finished Main (``preset``, ``games`` and other settings may be given)."""

    def make(preset="acc-main", games=12, players=20, results=FINISHED, **settings):
        director = UserFactory()
        event = EventFactory(director=director, preset=preset, qualifying_games=games, **settings)
        if preset.startswith("acc-"):
            sanction(event)  # the ACC office's decision, as in production
        entries = [EntryFactory(event=event) for _ in range(players)]
        make_playoff(event, entries, -(-players // 4), results)
        event.director = director
        event.ranked = entries
        return event

    return make
