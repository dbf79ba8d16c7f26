"""Cross-checking the two cards of one qualifying game (ACC Rule 12.2).

Each player keeps their own scorecard; before the cut the two lines of every game are compared.
When they disagree, Rule 12.2 settles the game without asking the players. Terms:

- card (ReportedLine): what one player wrote for the game, as written. Any box may be blank.
- claim: game points above 0 claim a win, 0 claims a loss. The number itself is only read as that
  claim: case g re-totals it. With game points blank, the spread column is the claim.
- column: the spread is written in plus (a win) or minus (a loss); 0 counts as blank.
- figure: the spread written on a card.
- apparent qualifier: a player who, on the cards as they stand, makes the cut.

The cases, as the project's rules page words them, and how each is applied here:

a. "an apparent qualifier claiming a bigger win than the opponent's recorded loss gets the
   smaller figure". The ACC's published text of 12.2a opens "disadvantage is always to the
   apparent qualifier", so a qualifier who recorded a smaller loss than the opponent's recorded
   win gets the bigger loss too. Exactly one apparent qualifier, figures differ, and the
   qualifier's figure is the better one for them: the qualifier's line takes the other figure.
b. "two apparent qualifiers disagreeing each get the figure that is worse for them (the cards
   need not match)": the winner gets the smaller figure, the loser the bigger one (both losers,
   after case e: both the bigger). Recorded whenever two qualifiers' figures differ, also when
   the cards already show each player's worse figure.
c. "spread on only one card: copy it to the other": the figure goes into the column the blank
   card's own claim calls for (plus for a win, minus for a loss); a card with no claim either
   gets the column opposite the other card's. Cases d-f then settle any conflict.
d. "both claim a win (or both a loss), spreads in opposite columns: the plus-column card is the
   winner"; the other card becomes the loss.
e. "both claim a win (or both a loss), spreads in the same column: both get a loss, spread moved
   to minus". Recorded even when both cards already show a loss in the minus column.
f. "one win and one loss but spreads in the same column: the win stands, the wrong column is
   fixed".
g. "re-total game points and spread": game points are worked out from the settled result and
   figure, so an arithmetic slip (2 GP for a win by 35) is mended here. Recorded whenever a
   line differs from what its card showed, since that card's totals must be added up again.
h. "an error already against the apparent qualifier stands": with exactly one apparent
   qualifier whose figure is already the worse one for them, both figures are left as written.
   Recorded so the record says why the cards differ.
i. "notify players whose qualification or position a correction changes": the caller's job;
   CrossCheckResult.changed names the cards that changed.

Order: c, then one of d/e/f, then a, b or h on the figures, then g. With no apparent qualifier,
differing figures are left as written: no case covers them, and the cards may differ.

Not covered by the rule, and refused with CrossCheckError rather than guessed: neither card has
a spread; and each spread sits in the column the other card's claim calls for (a win written in
minus against a loss written in plus). A spread above the target is refused as well.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scoring.games import (
    ACC_SETTINGS,
    SIDES,
    CardLine,
    CardLineError,
    ScoringSettings,
    game_points_for,
    validate_card_line,
)


class CrossCheckError(ValueError):
    """Two cards Rule 12.2 cannot settle; ``card`` ("a", "b" or None) and ``field`` say where."""

    def __init__(self, message: str, *, card: str | None = None, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.card = card
        self.field = field


@dataclass(frozen=True)
class ReportedLine:
    """One card's line for the game as written: None (or 0 for a spread) is a blank box."""

    game_points: int | None = None
    plus: int | None = None
    minus: int | None = None

    def __post_init__(self) -> None:
        for name in ("game_points", "plus", "minus"):
            value = getattr(self, name)
            if value is not None and (
                not isinstance(value, int) or isinstance(value, bool) or value < 0
            ):
                raise CardLineError(name, f"{name} must be blank or a whole number 0 or more.")
        if self.plus and self.minus:
            raise CardLineError(
                "minus", "Spread goes in one column only: plus and minus are both filled in."
            )

    @classmethod
    def from_card_line(cls, line: CardLine) -> ReportedLine:
        return cls(line.game_points, line.plus or None, line.minus or None)

    @property
    def column(self) -> str | None:
        if self.plus:
            return "plus"
        return "minus" if self.minus else None

    @property
    def spread(self) -> int | None:
        return self.plus or self.minus or None

    @property
    def claims_win(self) -> bool | None:
        """True for a claimed win, False for a loss, None when neither box says."""
        if self.game_points is not None:
            return self.game_points > 0
        return None if self.column is None else self.column == "plus"


@dataclass(frozen=True)
class AppliedCase:
    case: str
    explanation: str


@dataclass(frozen=True)
class CrossCheckResult:
    """The settled lines of one game; ``reported_*`` keep the cards as written, for the record."""

    reported_a: ReportedLine
    reported_b: ReportedLine
    line_a: CardLine
    line_b: CardLine
    applied: tuple[AppliedCase, ...]
    changed: tuple[str, ...]

    @property
    def cases(self) -> tuple[str, ...]:
        return tuple(step.case for step in self.applied)

    @property
    def explanations(self) -> tuple[str, ...]:
        return tuple(step.explanation for step in self.applied)


@dataclass(frozen=True)
class _Entry:
    """A card once it has a figure: who it says won, which column, which figure."""

    won: bool
    in_plus: bool
    figure: int

    def describe(self) -> str:
        return f"{'a win' if self.won else 'a loss'} by {self.figure}"


def _column(won: bool) -> str:
    return "plus" if won else "minus"


def _as_reported(line: ReportedLine | CardLine) -> ReportedLine:
    return ReportedLine.from_card_line(line) if isinstance(line, CardLine) else line


def _check_figures(cards: tuple[ReportedLine, ReportedLine], settings: ScoringSettings) -> None:
    for side, card in zip(SIDES, cards, strict=True):
        if card.spread is not None and card.spread > settings.target:
            raise CrossCheckError(
                f"Card {side} shows a spread of {card.spread}, more than the target "
                f"{settings.target}: no game ends that way.",
                card=side,
                field=card.column,
            )
    if cards[0].spread is None and cards[1].spread is None:
        raise CrossCheckError(
            "Neither card has a spread, so Rule 12.2 has nothing to settle the game with; "
            "the director must decide it.",
            field="spread",
        )


def _fill_spread(
    cards: tuple[ReportedLine, ReportedLine], names: tuple[str, str], applied: list[AppliedCase]
) -> tuple[_Entry, ...]:
    """Case c."""
    entries = [
        None if card.spread is None else _Entry(card.claims_win, card.column == "plus", card.spread)
        for card in cards
    ]
    for blank in (0, 1):
        if entries[blank] is not None:
            continue
        source = cards[1 - blank]
        claim = cards[blank].claims_win
        won = claim if claim is not None else source.column == "minus"
        entries[blank] = _Entry(won, won, source.spread)
        applied.append(
            AppliedCase(
                "c",
                f"Only {names[1 - blank]}'s card has a spread ({source.column} {source.spread}); "
                f"it is copied to {names[blank]}'s card in the {_column(won)} column.",
            )
        )
    return tuple(entries)


def _settle_winner(
    entries: tuple[_Entry, ...], names: tuple[str, str], applied: list[AppliedCase]
) -> tuple[_Entry, ...]:
    """Cases d, e and f: make the claims and columns of the two cards agree."""
    a, b = entries
    if a.won == b.won:
        return _same_claims(entries, names, applied)
    if a.in_plus == a.won and b.in_plus == b.won:
        return entries
    if a.in_plus != b.in_plus:
        raise CrossCheckError(
            "Each card's spread is in the column the other card's claim calls for; "
            "Rule 12.2 does not cover this, so the director must decide it.",
            field="spread",
        )
    wrong = names[0] if a.in_plus != a.won else names[1]
    applied.append(
        AppliedCase(
            "f",
            f"One card claims a win and one a loss, but both spreads are in the "
            f"{_column(a.in_plus)} column: the win stands and {wrong}'s spread moves to the "
            "other column.",
        )
    )
    return tuple(replace(entry, in_plus=entry.won) for entry in entries)


def _same_claims(
    entries: tuple[_Entry, ...], names: tuple[str, str], applied: list[AppliedCase]
) -> tuple[_Entry, ...]:
    """Cases d and e: both cards claim a win, or both a loss."""
    a, b = entries
    claim = "a win" if a.won else "a loss"
    if a.in_plus != b.in_plus:
        winner = names[0] if a.in_plus else names[1]
        applied.append(
            AppliedCase(
                "d",
                f"Both cards claim {claim}, with the spreads in opposite columns: {winner}'s "
                f"spread is in the plus column, so {winner} gets the win.",
            )
        )
        return tuple(replace(entry, won=entry.in_plus) for entry in entries)
    applied.append(
        AppliedCase(
            "e",
            f"Both cards claim {claim}, with both spreads in the {_column(a.in_plus)} column: "
            "it is a loss for both players, spread in the minus column.",
        )
    )
    return tuple(_Entry(False, False, entry.figure) for entry in entries)


def _settle_figures(
    entries: tuple[_Entry, ...],
    qualifiers: tuple[bool, bool],
    names: tuple[str, str],
    applied: list[AppliedCase],
) -> tuple[_Entry, ...]:
    """Cases a, b and h: differing figures go against apparent qualifiers."""
    figures = [entry.figure for entry in entries]
    if figures[0] == figures[1] or not any(qualifiers):
        return entries
    settled = tuple(
        replace(entry, figure=min(figures) if entry.won else max(figures)) if qualified else entry
        for entry, qualified in zip(entries, qualifiers, strict=True)
    )
    if all(qualifiers):
        applied.append(
            AppliedCase(
                "b",
                f"Both players are apparent qualifiers and their figures differ "
                f"({figures[0]} and {figures[1]}): each gets the figure worse for them, "
                f"{names[0]} {settled[0].describe()} and {names[1]} {settled[1].describe()}. "
                "The cards need not match.",
            )
        )
        return settled
    q = 0 if qualifiers[0] else 1
    shown = (
        f"{names[q]} recorded {entries[q].describe()}, {names[1 - q]} {entries[1 - q].describe()}"
    )
    if settled[q] != entries[q]:
        text = f"{shown}. Disadvantage goes to the apparent qualifier: {names[q]} gets "
        applied.append(AppliedCase("a", text + f"{settled[q].describe()}."))
    else:
        text = f"{shown}. The apparent qualifier {names[q]}'s figure is already the worse one "
        applied.append(AppliedCase("h", text + "for them, and an error against them stands."))
    return settled


def _line(entry: _Entry, settings: ScoringSettings) -> CardLine:
    points = game_points_for(entry.won, entry.figure, settings)
    if entry.won:
        return CardLine(points, plus=entry.figure)
    return CardLine(points, minus=entry.figure)


def _differs(card: ReportedLine, line: CardLine) -> bool:
    return (card.game_points, card.plus or 0, card.minus or 0) != (
        line.game_points,
        line.plus,
        line.minus,
    )


def cross_check(
    line_a: ReportedLine | CardLine,
    line_b: ReportedLine | CardLine,
    *,
    a_qualifier: bool,
    b_qualifier: bool,
    settings: ScoringSettings = ACC_SETTINGS,
    names: tuple[str, str] = ("Player A", "Player B"),
) -> CrossCheckResult:
    """Settle the two cards of one game by Rule 12.2; the result's lines are always valid."""
    cards = (_as_reported(line_a), _as_reported(line_b))
    _check_figures(cards, settings)
    applied: list[AppliedCase] = []
    entries = _fill_spread(cards, names, applied)
    entries = _settle_winner(entries, names, applied)
    entries = _settle_figures(entries, (a_qualifier, b_qualifier), names, applied)
    lines = (_line(entries[0], settings), _line(entries[1], settings))
    changed = tuple(
        side for side, card, line in zip(SIDES, cards, lines, strict=True) if _differs(card, line)
    )
    if changed:
        totals = "; ".join(
            f"{names[SIDES.index(side)]}: {_show(lines[SIDES.index(side)])}" for side in changed
        )
        applied.append(
            AppliedCase("g", f"Game points and spread re-totalled on the changed cards. {totals}.")
        )
    return CrossCheckResult(cards[0], cards[1], lines[0], lines[1], tuple(applied), changed)


def _show(line: CardLine) -> str:
    column = f"plus {line.plus}" if line.plus else f"minus {line.minus}"
    return f"{line.game_points} game points, {column}"


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
