"""Reading results: a table's current lines, the live board of a game, a player's card."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import OuterRef, Q, Subquery

from tournaments.core.pairing_teams import card_position
from tournaments.models import (
    ENTRANT_NAME,
    CardLine,
    Entry,
    Event,
    EventRole,
    Game,
    Playoff,
    Seat,
    StandingsSnapshot,
    Table,
)
from tournaments.selectors import entrants
from tournaments.selectors.access import event_roles
from tournaments.selectors.compiled import Compiled

_TABLE_LINES = Compiled(
    lambda table_id: CardLine.objects.filter(seat__table_id=table_id, current=True).order_by(
        "seat__position"
    ),
    int,
)


def table_current_lines(*, table_id: int) -> dict[str, dict[int, CardLine]]:
    """The current lines of both kinds at a table, by kind then seat id, in seat order (one
    query, compiled once: every report reads it)."""
    lines: dict[str, dict[int, CardLine]] = {CardLine.Kind.REPORTED: {}, CardLine.Kind.VERIFIED: {}}
    for line in _TABLE_LINES.rows(table_id):
        lines[line.kind][line.seat_id] = line
    return lines


def current_lines(*, table: Table, kind: str) -> dict[int, CardLine]:
    """The current lines of ``kind`` at a table, by seat id, in seat order."""
    return table_current_lines(table_id=table.pk)[kind]


def latest_standings(*, event: Event) -> StandingsSnapshot | None:
    return event.standings.order_by("-computed_at", "-id").first()


@dataclass(frozen=True)
class BoardRow:
    table: Table
    players: list[str]
    reported: list[CardLine | None]
    state: str  # "waiting", "one reported", "disagree", "verified", "flagged"
    # Each side's private links, seat order (when last heard): one player's, or both partners'.
    links: tuple[tuple[str, ...], ...] = ()


def game_board(*, game: Game) -> list[BoardRow]:
    """Each table of a game with what has been reported: the director's live board."""
    seats = Seat.objects.filter(game=game, table__isnull=False).select_related(
        "entry__player", "entry__team", "table"
    )
    lines = CardLine.objects.filter(seat__game=game, kind=CardLine.Kind.REPORTED, current=True)
    by_seat = {line.seat_id: line for line in lines}
    tables: dict[int, list[Seat]] = {}
    for seat in sorted(seats, key=lambda s: (s.table.number, s.position)):
        tables.setdefault(seat.table_id, []).append(seat)
    rows = []
    for seated in tables.values():
        table = seated[0].table
        cards = seated[:2]  # a doubles table's two teams' cards: positions 1 and 2
        reported = [by_seat.get(seat.pk) for seat in cards]
        names = [_board_name(seat, seated) for seat in cards]
        links = tuple(
            tuple(s.entry.report_token for s in seated if s.position % 2 == card.position % 2)
            for card in cards
        )
        rows.append(BoardRow(table, names, reported, _state(table, reported), links))
    return rows


def _board_name(card: Seat, seated: list[Seat]) -> str:
    """A side of the board: the player, or at a doubles table "Team (Ann and Bob)"."""
    if len(seated) <= 2 or card.entry.team is None:
        return card.entry.name
    partners = [s.entry.name for s in seated if s.position % 2 == card.position % 2]
    return entrants.team_label(card.entry.team.name, partners)


def _state(table: Table, reported: list[CardLine | None]) -> str:
    if table.status != Table.Status.OPEN:
        return table.status
    count = sum(line is not None for line in reported)
    return ("waiting", "one reported", "disagree")[count]


@dataclass(frozen=True)
class CardRow:
    """One game on a player's running card."""

    game: int
    table: int | None
    opponent: str
    line: CardLine | None  # the verified line if there is one, else the player's report
    verified: bool


IN_PLAY = (Game.Status.PUBLISHED, Game.Status.CLOSED)

# A player's poll that changed, and every report, read these: compiled once
# (``selectors.compiled``).
_CURRENT_SEAT = Compiled(
    lambda entry_id: (
        Seat.objects.filter(entry_id=entry_id, game__status__in=IN_PLAY)
        .select_related("game__event", "table")
        .order_by("-game__number")[:1]
    ),
    int,
)
_CARD_SEATS = Compiled(
    lambda entry_id: (
        Seat.objects.filter(entry_id=entry_id, game__status__in=IN_PLAY)
        .select_related("game", "table")
        .annotate(
            opponent=Subquery(
                Seat.objects.filter(table_id=OuterRef("table_id"))
                .exclude(pk=OuterRef("pk"))
                .values("entry__" + ENTRANT_NAME)[:1]
            )
        )
        .order_by("game__number")
    ),
    int,
)
_CARD_LINES = Compiled(
    lambda entry_id, table_id: CardLine.objects.filter(
        Q(seat__entry_id=entry_id, seat__game__status__in=IN_PLAY) | Q(seat__table_id=table_id),
        current=True,
    ).order_by(),
    int,
    int,
)


_UNREAD = object()


def known_none(entry, *parts: str) -> bool:
    """Whether ``entry`` was read with its page's version (``selectors.live.
    entry_and_poll_by_token``, in the same statement) and each of these parts (the newest id
    of a kind of row) is None: there is no such row, so there is nothing to read."""
    return all(getattr(entry, part, _UNREAD) is None for part in parts)


def entry_current_seat(*, entry) -> Seat | None:
    """The seat of the latest game in play for ``entry`` (published or closed)."""
    return _CURRENT_SEAT.first(entry.pk)


@dataclass(frozen=True)
class RunningCard:
    rows: list[CardRow]
    current: Seat | None  # the seat of the latest game in play (``entry_current_seat``)
    mine: dict[str, CardLine]  # the current seat's current lines, by kind
    theirs: dict[str, CardLine]  # the current opponent's


def entry_card(*, entry) -> RunningCard:
    """Every game the entry has played or is playing, with its line, and the current game's
    seat and lines at its table (both players'), in two queries."""
    seats = _CARD_SEATS.rows(entry.pk)
    current = seats[-1] if seats else None
    if current is not None:
        current.entry = entry
        current.game.event = entry.event
    lines: dict[int, dict[str, CardLine]] = {}
    none_yet = known_none(entry, "v_line", "v_table_line")  # no line at any of its tables
    for line in [] if none_yet else _CARD_LINES.rows(entry.pk, (current and current.table_id) or 0):
        lines.setdefault(line.seat_id, {})[line.kind] = line
    own = {seat.pk for seat in seats}
    theirs = next((kinds for seat_id, kinds in lines.items() if seat_id not in own), {})
    rows = []
    for seat in seats:
        kinds = lines.get(seat.pk, {})
        line = kinds.get("verified") or kinds.get("reported")
        rows.append(
            CardRow(
                seat.game.number,
                seat.table.number if seat.table else None,
                seat.opponent or "Sits out",
                line,
                "verified" in kinds,
            )
        )
    mine = lines.get(current.pk, {}) if current else {}
    return RunningCard(rows, current, mine, theirs)


def game_history(*, game: Game) -> list[CardLine]:
    """Every line ever entered for the game, old and new, with who, when and why."""
    return list(
        CardLine.objects.filter(seat__game=game)
        .select_related("seat__entry__player", "seat__table", "entered_by")
        .order_by("seat__table__number", "created_at", "id")
    )


@dataclass(frozen=True)
class SeatDetail:
    """One seat of a table: its lines, and ``current`` (verified, else as reported), which is
    where a correction starts from."""

    seat: Seat
    reported: CardLine | None
    verified: CardLine | None

    @property
    def current(self) -> CardLine | None:
        return self.verified or self.reported


@dataclass(frozen=True)
class TableDetail:
    """A table for its staff: both seats' lines, every line ever entered, and whether the cut
    is made (a correction then may need the bracket rebuilt)."""

    table: Table
    seats: list[SeatDetail]
    history: list[CardLine]
    post_cut: bool


def table_detail_of(*, table: Table) -> TableDetail:
    """The one read model of a table, for its page and the API."""
    table.refresh_from_db(fields=["status", "verified_at"])  # a service may just have changed it
    # The table's two cards (a doubles table's teams' cards: positions 1 and 2).
    seats = table.seats.filter(position__lte=2).select_related("entry__player", "entry__team")
    seats = list(seats.order_by("position"))
    lines = table_current_lines(table_id=table.pk)
    reported, verified = lines[CardLine.Kind.REPORTED], lines[CardLine.Kind.VERIFIED]
    return TableDetail(
        table,
        [SeatDetail(s, reported.get(s.pk), verified.get(s.pk)) for s in seats],
        table_history(table=table),
        Playoff.objects.filter(event_id=table.game.event_id).exists(),
    )


def flagged_tables(*, event: Event) -> list[Table]:
    """Tables waiting for a cross-check, game by game."""
    return list(
        Table.objects.filter(game__event=event, status=Table.Status.FLAGGED)
        .select_related("game")
        .order_by("game__number", "number")
    )


def unreported_entries(*, game: Game) -> list[int]:
    """Entries seated at a table of ``game`` whose card has no report (a doubles partner's is
    the team's card, ``core.pairing_teams``)."""
    reported = set(
        CardLine.objects.filter(seat__game=game, kind="reported").values_list("seat_id", flat=True)
    )
    seats = list(
        Seat.objects.filter(game=game, table__status=Table.Status.OPEN).values_list(
            "pk", "entry_id", "table_id", "position"
        )
    )
    card = {(table, position): pk for pk, _, table, position in seats}
    return [
        entry
        for _, entry, table, position in seats
        if card.get((table, card_position(position))) not in reported
    ]


def table_history(*, table: Table) -> list[CardLine]:
    """Every line ever entered at a table: old and new values, who, when and why."""
    return list(
        CardLine.objects.filter(seat__table=table)
        .select_related("seat__entry__player", "seat__entry__team", "entered_by__player")
        .order_by("created_at", "id")
    )


@dataclass(frozen=True)
class StandingsTable:
    snapshot: StandingsSnapshot | None
    rows: list[dict]  # snapshot rows with "name" added (and "team_id", "partners" in doubles)
    cut_after: int  # rank position after which the cut line is drawn (0: no cut)


def standings_table(*, event: Event) -> StandingsTable:
    """The latest standings with player names, in two queries whatever the field size."""
    snapshot = latest_standings(event=event)
    if snapshot is None:
        return StandingsTable(None, [], 0)
    if event.in_teams:  # a team's row is its first partner's entry (``selectors.standings``)
        named = entrants.entry_entrants(entries=Entry.objects.filter(event=event))
        rows = [
            {
                **row,
                **dict(
                    zip(
                        ("name", "team_id", "partners", "label"),
                        named[row["entry_id"]],
                        strict=True,
                    )
                ),
            }
            for row in snapshot.rows
            if row["entry_id"] in named
        ]
        return StandingsTable(snapshot, rows, snapshot.qualifiers)
    names = entrants.entry_names(entries=Entry.objects.filter(event=event))
    rows = [{**row, "name": names.get(row["entry_id"], "?")} for row in snapshot.rows]
    return StandingsTable(snapshot, rows, snapshot.qualifiers)


@dataclass(frozen=True)
class Refusal:
    code: str
    message: str


def report_refusal(*, seat: Seat, table: Table | None, by_player: bool = True) -> Refusal | None:
    """Why a line may not be reported for ``seat`` now, or None: the one rule, used by the
    player's page and API (may I report?) and by the service that saves a report. Staff
    (``by_player=False``) may still enter a line once the game is closed or the table flagged.
    ``table`` is the seat's table as the caller holds it (the service's is locked)."""
    game, entry = seat.game, seat.entry
    if by_player and entry.status == Entry.Status.WITHDRAWN:
        last = entry.withdrawn_after_game or 0
        if game.number > last:
            return Refusal(
                "withdrawn",
                f"You withdrew after game {last}: game {game.number} is not yours to report. "
                "Your earlier games still count.",
            )
    if table is None:
        return Refusal("sit_out", f"You sit out game {game.number}: there is nothing to report.")
    if game.status == Game.Status.CLOSED and by_player:
        return Refusal(
            "game_closed", f"Game {game.number} is closed; a cross-checker will settle your table."
        )
    if game.status not in (Game.Status.PUBLISHED, Game.Status.CLOSED):
        return Refusal("not_started", f"Game {game.number} has not started yet.")
    if table.status == Table.Status.VERIFIED:
        return Refusal(
            "already_verified",
            f"Table {table.number} of game {game.number} is already verified; "
            "ask the director if it needs a correction.",
        )
    if table.status == Table.Status.FLAGGED and by_player:
        return Refusal(
            "flagged", f"Table {table.number} of game {game.number} is with the cross-checker."
        )
    return None


def seat_can_report(seat: Seat | None) -> bool:
    """Whether the player may report this seat's game now (see ``report_refusal``)."""
    return seat is not None and report_refusal(seat=seat, table=seat.table) is None


def staff_line_source(*, event: Event, user) -> str:
    """Who a line entered by staff comes from, by the user's role in the event."""
    if EventRole.Role.DIRECTOR in event_roles(event=event, user=user):
        return CardLine.Source.DIRECTOR
    return CardLine.Source.CROSS_CHECKER
