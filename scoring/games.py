"""Game points, spread, card lines and best-of-N matches.

Terms, in the players' words:

- target: the score that wins a game (121; some clubs play 61).
- spread: the margin of a game, ``target - loser's score``: 1..target.
- skunk: a win by ``skunk_margin`` or more (in a 121-point game the loser is on 90 or below).
  In a 61-point game this is the "lurch" (loser on 30 or below) and there is no double skunk.
- double skunk: a win by ``double_skunk_margin`` or more (loser on 60 or below at 121). ACC play
  scores it like a skunk and keeps it as a statistic.
- game points (GP): what a game is worth in the standings: 0 for a loss, ``win_points`` for a
  win, ``skunk_points`` or ``double_skunk_points`` for a skunk or double skunk.
- card line: one player's record of one game on their scorecard: game points, and the spread in
  the plus column (a win) or the minus column (a loss). Net spread = plus - minus.
- administrative result: a game decided off the board (forfeit, no-show, late from lunch,
  refusal to accept a ruling): ``admin_win_points`` and plus ``admin_spread`` to the opponent,
  0 and minus ``admin_spread`` to the offender. Never a skunk.
- match: best of N games (N odd); the first side to ``N // 2 + 1`` wins takes it. The two
  players of a game or match are the sides "a" and "b".

Every event-dependent number is a field of ScoringSettings; ACC_SETTINGS holds the ACC defaults.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

SIDES = ("a", "b")
FIRST_DEAL_RULES = ("cut", "loser_deals")


def other_side(side: str) -> str:
    """The opponent of side "a" or "b"."""
    if side not in SIDES:
        raise ValueError(f"A side is 'a' or 'b', not {side!r}.")
    return "b" if side == "a" else "a"


def _require_int(name: str, value: object, minimum: int, maximum: int | None = None) -> None:
    # bool is an int subclass; True as a target is a bug, not 1.
    if not isinstance(value, int) or isinstance(value, bool):
        raise ValueError(f"{name} must be a whole number, not {value!r}.")
    if value < minimum or (maximum is not None and value > maximum):
        upper = f" and at most {maximum}" if maximum is not None else ""
        raise ValueError(f"{name} must be at least {minimum}{upper}, not {value}.")


@dataclass(frozen=True)
class ScoringSettings:
    """How games of one event are scored. Defaults are the ACC's (121 points, 2/3/3)."""

    target: int = 121
    skunk_margin: int = 31
    double_skunk_margin: int | None = 61
    win_points: int = 2
    skunk_points: int = 3
    double_skunk_points: int = 3
    admin_win_points: int = 2
    admin_spread: int = 10

    def __post_init__(self) -> None:
        _require_int("target", self.target, 1)
        _require_int("skunk_margin", self.skunk_margin, 1, self.target)
        _require_int("win_points", self.win_points, 1)
        _require_int("skunk_points", self.skunk_points, self.win_points)
        # Without a double skunk line (61-point games) its points are never used.
        if self.double_skunk_margin is not None:
            _require_int(
                "double_skunk_margin", self.double_skunk_margin, self.skunk_margin + 1, self.target
            )
            _require_int("double_skunk_points", self.double_skunk_points, self.skunk_points)
        _require_int("admin_win_points", self.admin_win_points, 1)
        # An administrative win is never a skunk, so its spread must stay below the skunk line.
        _require_int("admin_spread", self.admin_spread, 1, self.skunk_margin - 1)


ACC_SETTINGS = ScoringSettings()


def sixty_one_point_settings(**overrides: int | None) -> ScoringSettings:
    """Settings for 61-point games: the lurch (loser on 30 or below) is the skunk; no double."""
    base = ScoringSettings(target=61, skunk_margin=31, double_skunk_margin=None)
    return replace(base, **overrides)


def _check_spread(spread: object, settings: ScoringSettings, field_name: str) -> int:
    if (
        not isinstance(spread, int)
        or isinstance(spread, bool)
        or not 1 <= spread <= settings.target
    ):
        raise CardLineError(
            field_name,
            f"A spread is 1 to {settings.target} (the target minus the loser's score), "
            f"not {spread!r}.",
        )
    return spread


def win_kind(spread: int, settings: ScoringSettings = ACC_SETTINGS) -> str:
    """ "double skunk", "skunk" or "plain win" for a win by ``spread``."""
    double = settings.double_skunk_margin
    if double is not None and spread >= double:
        return "double skunk"
    return "skunk" if spread >= settings.skunk_margin else "plain win"


def game_points_for(won: bool, spread: int, settings: ScoringSettings = ACC_SETTINGS) -> int:
    """Game points of a win or loss by ``spread``."""
    _check_spread(spread, settings, "spread")
    if not won:
        return 0
    return {
        "double skunk": settings.double_skunk_points,
        "skunk": settings.skunk_points,
        "plain win": settings.win_points,
    }[win_kind(spread, settings)]


class CardLineError(ValueError):
    """A card line that breaks the scoring rules; ``field`` names the box to fix."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class CardLine:
    """One player's line for one game. Only the shape is checked here; see validate_card_line."""

    game_points: int
    plus: int = 0
    minus: int = 0

    def __post_init__(self) -> None:
        for name in ("game_points", "plus", "minus"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise CardLineError(name, f"{name} must be a whole number, 0 or more: {value!r}.")

    @property
    def won(self) -> bool:
        return self.game_points > 0

    @property
    def spread(self) -> int:
        return self.plus or self.minus

    @property
    def net(self) -> int:
        return self.plus - self.minus


def _points(n: int) -> str:
    return f"{n} game point" if n == 1 else f"{n} game points"


def _wrong_points_message(line: CardLine, expected: int, settings: ScoringSettings) -> str:
    spread = line.spread
    if line.minus:
        return (
            f"A loss by {spread} scores 0 game points, not {line.game_points}. "
            "If you won, write the spread in the plus column."
        )
    message = f"A win by {spread} is a {win_kind(spread, settings)}: {_points(expected)}, "
    message += f"not {line.game_points}."
    if line.game_points == 0:
        message += " If you lost, write the spread in the minus column."
    elif line.game_points > expected and settings.skunk_points > settings.win_points:
        message += f" A skunk needs a win by {settings.skunk_margin} or more."
    return message


def validate_card_line(line: CardLine, settings: ScoringSettings = ACC_SETTINGS) -> CardLine:
    """Return ``line`` if it fits the event's scoring settings, else raise CardLineError.

    With ACC settings: 2 GP with plus 1..30, 3 GP with plus 31..121, 0 GP with minus 1..121.
    """
    if line.plus and line.minus:
        raise CardLineError(
            "minus" if line.won else "plus",
            f"Spread goes in one column only, but plus {line.plus} and minus {line.minus} are "
            "both filled in. A win is written in plus, a loss in minus.",
        )
    if not line.plus and not line.minus:
        raise CardLineError(
            "plus" if line.won else "minus",
            "The spread is missing: write the margin in the plus column for a win "
            "or in the minus column for a loss.",
        )
    _check_spread(line.spread, settings, "plus" if line.plus else "minus")
    expected = game_points_for(bool(line.plus), line.spread, settings)
    if line.game_points != expected:
        raise CardLineError("game_points", _wrong_points_message(line, expected, settings))
    return line


def card_line_for(won: bool, spread: int, settings: ScoringSettings = ACC_SETTINGS) -> CardLine:
    """The valid card line of a win or loss by ``spread``, game points worked out."""
    points = game_points_for(won, spread, settings)
    return CardLine(points, plus=spread, minus=0) if won else CardLine(0, plus=0, minus=spread)


def describe_card_line(
    *,
    won: bool,
    spread: int,
    game_points: int | None = None,
    settings: ScoringSettings = ACC_SETTINGS,
) -> str:
    """Explain a card line in plain words; raise CardLineError if ``game_points`` is wrong."""
    _check_spread(spread, settings, "spread")
    line = card_line_for(won, spread, settings)
    if game_points is not None:
        validate_card_line(replace(line, game_points=game_points), settings)
    loser_score = settings.target - spread
    kind = win_kind(spread, settings)
    if won:
        opening = f"A win by {spread}" + ("" if kind == "plain win" else f" is a {kind}")
        tail = f"plus {spread} spread (the loser finished on {loser_score})."
    else:
        opening = f"A loss by {spread}" + (
            "" if kind == "plain win" else f" is a {kind} against you"
        )
        tail = f"minus {spread} spread (you finished on {loser_score})."
    return f"{opening}: {_points(line.game_points)}, {tail}"


def lines_reciprocal(a: CardLine, b: CardLine, settings: ScoringSettings = ACC_SETTINGS) -> bool:
    """True when both lines are valid and tell the same game: one win, one loss, same spread."""
    try:
        validate_card_line(a, settings)
        validate_card_line(b, settings)
    except CardLineError:
        return False
    return a.won != b.won and a.spread == b.spread


def administrative_lines(settings: ScoringSettings = ACC_SETTINGS) -> tuple[CardLine, CardLine]:
    """(winner's line, offender's line) of an administrative result: by default 2 +10 / 0 -10.

    They pass validate_card_line whenever admin_win_points equals win_points, as in ACC play.
    """
    return (
        CardLine(settings.admin_win_points, plus=settings.admin_spread),
        CardLine(0, minus=settings.admin_spread),
    )


@dataclass(frozen=True)
class GameResult:
    """A finished game, from the loser's final score."""

    loser_score: int
    spread: int
    winner_game_points: int
    loser_game_points: int
    skunk: bool
    double_skunk: bool
    settings: ScoringSettings = field(default=ACC_SETTINGS, repr=False)

    @property
    def winner_line(self) -> CardLine:
        return card_line_for(True, self.spread, self.settings)

    @property
    def loser_line(self) -> CardLine:
        return card_line_for(False, self.spread, self.settings)


def game_result(loser_score: int, settings: ScoringSettings = ACC_SETTINGS) -> GameResult:
    """Result of a game the winner took at the target with the loser on ``loser_score``."""
    _require_int("loser_score", loser_score, 0, settings.target - 1)
    spread = settings.target - loser_score
    kind = win_kind(spread, settings)
    return GameResult(
        loser_score=loser_score,
        spread=spread,
        winner_game_points=game_points_for(True, spread, settings),
        loser_game_points=0,
        skunk=kind != "plain win",
        double_skunk=kind == "double skunk",
        settings=settings,
    )


class MatchError(ValueError):
    """A best-of-N match record that cannot be right."""


@dataclass(frozen=True)
class MatchState:
    """A best-of-N match after the games in ``winners`` (each "a" or "b", in order)."""

    best_of: int
    winners: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.best_of, int) or self.best_of < 1 or self.best_of % 2 == 0:
            raise MatchError(
                f"A match is best of an odd number of games (3, 5, 7...), not {self.best_of!r}."
            )
        needed = self.games_needed
        wins = {"a": 0, "b": 0}
        for number, winner in enumerate(self.winners, start=1):
            if winner not in SIDES:
                raise MatchError(f"Game {number}: the winner is 'a' or 'b', not {winner!r}.")
            if max(wins.values()) >= needed:
                leader = max(wins, key=wins.__getitem__)
                raise MatchError(
                    f"Game {number} was recorded after the match was decided: {leader} had "
                    f"already won {needed} games of {self.best_of}."
                )
            wins[winner] += 1

    @property
    def games_needed(self) -> int:
        return self.best_of // 2 + 1

    @property
    def wins_a(self) -> int:
        return self.winners.count("a")

    @property
    def wins_b(self) -> int:
        return self.winners.count("b")

    @property
    def winner(self) -> str | None:
        if self.wins_a >= self.games_needed:
            return "a"
        return "b" if self.wins_b >= self.games_needed else None

    @property
    def decided(self) -> bool:
        return self.winner is not None


def match_state(best_of: int, winners: Sequence[str] = ()) -> MatchState:
    """The state of a best-of-``best_of`` match after the games won by ``winners``."""
    return MatchState(best_of, tuple(winners))


def next_first_dealer(state: MatchState, first_deal: str = "cut") -> str | None:
    """Who deals first in the next game: None means cut for deal.

    ``first_deal`` is the event setting: "cut" (cut before every game, the ACC default) or
    "loser_deals" (the loser of the previous game deals; the first game is still cut for).
    """
    if first_deal not in FIRST_DEAL_RULES:
        raise MatchError(f"first_deal is 'cut' or 'loser_deals', not {first_deal!r}.")
    if state.decided:
        raise MatchError(f"The match is over ({state.winner} won); there is no next game.")
    if first_deal == "cut" or not state.winners:
        return None
    return other_side(state.winners[-1])
