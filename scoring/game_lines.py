"""The two verified lines of one game, checked as a whole: what a correction (or a cross-check)
may leave at a table.

- line: a player's card line of the game (``scoring.games.CardLine``); either may be missing.
- side: "a" or "b", the seat of the line a refusal asks to change.
"""

from __future__ import annotations

from scoring.games import (
    ACC_SETTINGS,
    SIDES,
    CardLine,
    CardLineError,
    ScoringSettings,
    validate_card_line,
)


class GameLinesError(CardLineError):
    """Two lines of one game that no cross-check or administrative result can produce;
    ``side`` ("a" or "b") is the line to change and ``field`` its box."""

    def __init__(self, side: str, field: str, message: str) -> None:
        super().__init__(field, message)
        self.side = side


def validate_game_lines(
    line_a: CardLine | None,
    line_b: CardLine | None,
    settings: ScoringSettings = ACC_SETTINGS,
    *,
    changed: tuple[str, ...] = SIDES,
) -> None:
    """Check the two verified lines of one game as a whole (either may be missing).

    Each line must fit the settings, and the pair must be one that Rule 12.2 or an
    administrative result can leave: at most one winner. Two losers are possible (case e, or a
    double forfeit at 0 game points, minus 10 each), and the figures need not mirror each other
    (case b). ``changed`` names the sides being corrected: a refusal blames the first of them.
    """
    lines = dict(zip(SIDES, (line_a, line_b), strict=True))
    for side in SIDES:
        line = lines[side]
        if line is None:
            continue
        try:
            validate_card_line(line, settings)
        except CardLineError as exc:
            raise GameLinesError(side, exc.field, exc.message) from None
    if line_a is not None and line_b is not None and line_a.won and line_b.won:
        side = changed[0] if changed else "a"
        raise GameLinesError(
            side,
            "game_points",
            "Both lines are wins, but a game has at most one winner. When both cards claim a "
            "win, ACC Rule 12.2 case d gives it to the card with the spread in the plus column, "
            "and case e makes it a loss for both: enter this line as a loss (0 game points, "
            "spread in the minus column), or the other player's as a loss.",
        )
