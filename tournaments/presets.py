"""Event presets: the settings an ACC Main, an ACC Consolation, an ACC Doubles satellite (teams
of two, no Master Rating Points) or a Grass Roots club night start from. A director may change
any setting before play starts; the event keeps the preset's name.

Values follow ``shared/domain/acc-tournaments.md``; none of them is a rule of the code, only a
starting point.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any


@dataclass(frozen=True)
class Preset:
    slug: str
    name: str
    kind: str
    games_range: tuple[int, int]
    settings: MappingProxyType


_ACC_SCORING = {
    "target_score": 121,
    "skunk_margin": 31,
    "double_skunk_margin": 61,
    "win_points": 2,
    "skunk_points": 3,
    "double_skunk_points": 3,
    "max_meetings": 1,
    "sit_out_game_points": 2,
    "sit_out_spread": 10,
    "muggins": False,
    "qualifier_ratio": 4,
    "rulebook_edition": "ACC Tournament Rules (edition in force)",
    "pairing_mode": "random",
    "judges_per_ruling": 2,
}


def _preset(slug: str, name: str, kind: str, games: tuple[int, int], **extra: Any) -> Preset:
    return Preset(slug, name, kind, games, MappingProxyType({**_ACC_SCORING, **extra}))


PRESETS: dict[str, Preset] = {
    p.slug: p
    for p in (
        _preset(
            "acc-main",
            "ACC Main",
            "main",
            (12, 22),
            qualifying_games=22,
            playoff_best_of={"every": 5, "semi": None, "final": None},
        ),
        _preset(
            "acc-consolation",
            "ACC Consolation",
            "consolation",
            (7, 12),
            qualifying_games=12,
            playoff_best_of={"every": 3, "semi": None, "final": None},
        ),
        _preset(
            "acc-doubles-satellite",
            "ACC Doubles satellite",
            "satellite",
            (7, 12),
            style="doubles",
            qualifying_games=9,
            playoff_best_of={"every": 3, "semi": None, "final": None},
        ),
        _preset(
            "grass-roots",
            "Grass Roots club night",
            "club_night",
            (9, 9),
            qualifying_games=9,
            playoff_best_of={"every": 3, "semi": None, "final": None},
            qualifier_ratio=0,
            judges_per_ruling=1,  # a club night often has one volunteer judge
        ),
    )
}
