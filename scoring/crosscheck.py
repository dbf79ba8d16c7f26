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
    """One case of the rule: ``explanation`` says what each player wrote (and what earlier cases
    made of it), then what this case did; ``action`` is the second half alone."""

    case: str
    explanation: str
    action: str = ""


@dataclass(frozen=True)
class CrossCheckResult:
    """The settled lines of one game; ``reported_*`` keep the cards as written, for the record."""

    reported_a: ReportedLine
    reported_b: ReportedLine
    line_a: CardLine
    line_b: CardLine
    applied: tuple[AppliedCase, ...]
    changed: tuple[str, ...]
    written: str = ""

    @property
    def cases(self) -> tuple[str, ...]:
        return tuple(step.case for step in self.applied)

    @property
    def explanations(self) -> tuple[str, ...]:
        return tuple(step.explanation for step in self.applied)

    @property
    def summary(self) -> str:
        """What the players wrote, then each case's action once: the record's short reason."""
        steps = " ".join(f"Case {step.case}: {step.action}" for step in self.applied)
        return f"{self.written} {steps}".strip()


@dataclass(frozen=True)
class _Entry:
    """A card once it has a figure: who it says won, which column, which figure."""

    won: bool
    in_plus: bool
    figure: int

    def describe(self) -> str:
        return _result_words(self.won, self.in_plus, self.figure)


def _column(won: bool) -> str:
    return "plus" if won else "minus"


def _result_words(won: bool, in_plus: bool, figure: int | None) -> str:
    claim = "a win" if won else "a loss"
    if figure is None:
        return f"{claim} with no spread"
    if in_plus == won:
        return f"{claim} by {figure}"
    return f"{claim} with {figure} in the {_column(in_plus)} column"


def _card_words(card: ReportedLine) -> str:
    """A card as its player wrote it, in words: "a win by 16", "a loss with 20 in the plus
    column", "blank game points and minus 12"."""
    if card.game_points is None:
        spread = f"{card.column} {card.spread}" if card.spread else "no spread"
        return f"blank game points and {spread}"
    return _result_words(card.game_points > 0, card.column == "plus", card.spread)


def _as_entry(card: ReportedLine) -> _Entry | None:
    if card.spread is None:
        return None
    return _Entry(card.claims_win, card.column == "plus", card.spread)


@dataclass
class _Steps:
    """The cards as written, and the cases applied so far, so each case can say what the
    players wrote, what earlier cases made of it, and then what it did."""

    cards: tuple[ReportedLine, ReportedLine]
    names: tuple[str, str]
    applied: list[AppliedCase]

    @property
    def written(self) -> str:
        a, b = (_card_words(card) for card in self.cards)
        return f"{self.names[0]} wrote {a}; {self.names[1]} wrote {b}."

    def add(
        self, case: str, action: str, seen: tuple[_Entry, ...] | None = None, *, summary: str = ""
    ) -> None:
        """Record ``case``; ``seen`` is the two cards as this case found them, ``summary`` a
        shorter ``action`` for the record's reason."""
        text = self.written
        as_written = tuple(_as_entry(card) for card in self.cards)
        if seen is not None and tuple(seen) != as_written:
            earlier = ", ".join(step.case for step in self.applied)
            text = (
                f"{text[:-1]}. After case {earlier} the cards read: {self.names[0]} "
                f"{seen[0].describe()}, {self.names[1]} {seen[1].describe()}."
            )
        self.applied.append(AppliedCase(case, f"{text} {action}", summary or action))


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


def _fill_spread(steps: _Steps) -> tuple[_Entry, ...]:
    """Case c."""
    cards, names = steps.cards, steps.names
    entries = [_as_entry(card) for card in cards]
    for blank in (0, 1):
        if entries[blank] is not None:
            continue
        source = cards[1 - blank]
        claim = cards[blank].claims_win
        won = claim if claim is not None else source.column == "minus"
        entries[blank] = _Entry(won, won, source.spread)
        steps.add(
            "c",
            f"Only {names[1 - blank]}'s card has a spread ({source.column} {source.spread}): "
            f"it is copied to {names[blank]}'s card in the {_column(won)} column, "
            f"making it {entries[blank].describe()}.",
        )
    return tuple(entries)


def _settle_winner(entries: tuple[_Entry, ...], steps: _Steps) -> tuple[_Entry, ...]:
    """Cases d, e and f: make the claims and columns of the two cards agree."""
    a, b = entries
    if a.won == b.won:
        return _same_claims(entries, steps)
    if a.in_plus == a.won and b.in_plus == b.won:
        return entries
    if a.in_plus != b.in_plus:
        raise CrossCheckError(
            "Each card's spread is in the column the other card's claim calls for; "
            "Rule 12.2 does not cover this, so the director must decide it.",
            field="spread",
        )
    wrong = steps.names[0] if a.in_plus != a.won else steps.names[1]
    steps.add(
        "f",
        f"One card claims a win and one a loss, but both spreads are in the "
        f"{_column(a.in_plus)} column: the win stands and {wrong}'s spread moves to the "
        "other column.",
        entries,
    )
    return tuple(replace(entry, in_plus=entry.won) for entry in entries)


def _same_claims(entries: tuple[_Entry, ...], steps: _Steps) -> tuple[_Entry, ...]:
    """Cases d and e: both cards claim a win, or both a loss."""
    a, b = entries
    claim = "a win" if a.won else "a loss"
    if a.in_plus != b.in_plus:
        winner = steps.names[0] if a.in_plus else steps.names[1]
        steps.add(
            "d",
            f"Both cards claim {claim}, with the spreads in opposite columns: {winner}'s "
            f"spread is in the plus column, so {winner} gets the win and the other side "
            "the loss.",
            entries,
        )
        return tuple(replace(entry, won=entry.in_plus) for entry in entries)
    steps.add(
        "e",
        f"Both cards claim {claim}, with both spreads in the {_column(a.in_plus)} column: "
        "it is a loss for both sides, each by their own figure in the minus column.",
        entries,
    )
    return tuple(_Entry(False, False, entry.figure) for entry in entries)


def _settle_figures(
    entries: tuple[_Entry, ...], qualifiers: tuple[bool, bool], steps: _Steps
) -> tuple[_Entry, ...]:
    """Cases a, b and h: differing figures go against apparent qualifiers."""
    names = steps.names
    figures = [entry.figure for entry in entries]
    if figures[0] == figures[1] or not any(qualifiers):
        return entries
    settled = tuple(
        replace(entry, figure=min(figures) if entry.won else max(figures)) if qualified else entry
        for entry, qualified in zip(entries, qualifiers, strict=True)
    )
    if all(qualifiers):
        steps.add(
            "b",
            f"Both players are apparent qualifiers and their figures differ "
            f"({figures[0]} and {figures[1]}): each gets the figure worse for them, "
            f"{names[0]} {settled[0].describe()} and {names[1]} {settled[1].describe()}. "
            "The cards need not match.",
            entries,
        )
        return settled
    q = 0 if qualifiers[0] else 1
    if settled[q] != entries[q]:
        action = (
            f"Disadvantage goes to the apparent qualifier: {names[q]} gets {settled[q].describe()}."
        )
        steps.add("a", action, entries)
    else:
        action = (
            f"The apparent qualifier {names[q]}'s figure is already the worse one for them, "
            "and an error against them stands."
        )
        steps.add("h", action, entries)
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
    steps = _Steps(cards, names, [])
    entries = _fill_spread(steps)
    entries = _settle_winner(entries, steps)
    entries = _settle_figures(entries, (a_qualifier, b_qualifier), steps)
    lines = (_line(entries[0], settings), _line(entries[1], settings))
    changed = tuple(
        side for side, card, line in zip(SIDES, cards, lines, strict=True) if _differs(card, line)
    )
    if changed:
        said = "; ".join(
            f"{names[i]}'s card said {_show(cards[i])}, it now reads {_show(lines[i])}"
            for i in (SIDES.index(side) for side in changed)
        )
        now = "; ".join(f"{names[i]} {_show(lines[i])}" for i in map(SIDES.index, changed))
        steps.add(
            "g",
            f"Game points and spread re-totalled on the changed cards: {said}.",
            summary=f"Re-totalled: {now}.",
        )
    return CrossCheckResult(
        cards[0], cards[1], lines[0], lines[1], tuple(steps.applied), changed, steps.written
    )


def _show(line: CardLine | ReportedLine) -> str:
    points = "blank game points" if line.game_points is None else f"{line.game_points} game points"
    if line.plus:
        return f"{points}, plus {line.plus}"
    return f"{points}, minus {line.minus}" if line.minus else f"{points}, no spread"
