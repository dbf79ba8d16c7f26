"""A player's report by their private link, in as few statements as the rules allow.

During a weekend's burst a thousand phones report within a minute or two, and each report is a
transaction that holds its table's row lock: its cost is the event's ceiling. ``report_by_link``
is the same report as ``services.results.card_line_report`` (the same rules: ``report_refusal``,
the engine's line, ``agreed_lines``; the same lock), run as:

1. one statement finds the link's entry, its current seat, the game, the event and the table, and
   locks the table's row (``FOR UPDATE OF`` the table); on PostgreSQL it also reads the table's
   seats, their players' names and current lines (elsewhere a statement after the lock);
2. one inserts the new line, and the two verified lines when the cards now agree, returning their
   ids (a line reported again first retires the old one: one more);
3. when the game is verified, the table's update goes in that same statement on PostgreSQL (a
   data-modifying ``WITH``; a second statement elsewhere); the standings job is asked for
   after the commit, outside the transaction, and without a database round trip while one is
   known to be waiting (``standings_follow``);
4. with an ``Idempotency-Key``, (link, key) is kept with the answer (``services.idempotency``)
   in that same statement on PostgreSQL (a second data-modifying ``WITH``), in one of its own
   elsewhere.

Plus BEGIN and COMMIT: 4 statements on PostgreSQL, for a keyed report that verifies its table
too, as many as the stack's own limit (``bench/limit_app``).

The lines read in 1 come from the statement's snapshot, taken before its lock was granted: a
report of the same table that committed while this one waited is not in them. So the insert
(2) also returns the table's current lines as they are then, after the lock; when they differ
from those the report was decided on (the other card came in meanwhile: two players of a
table within milliseconds), nothing of it is kept (``TableChanged``: the transaction is rolled
back) and the report runs again with the lines read after the lock, as on other databases.
The answer is built from what the transaction holds (``selectors.report.report_saved``),
before the insert that keeps it, and is never read again. Anything else (an unknown link, no game,
a sit-out, a doubles table, where a report goes on the team's card) is not a report this path
takes: ``report_by_link`` returns None and the caller takes the general path.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import IntegrityError, connection
from django.db.models import Field, FilteredRelation, OuterRef, Q, Subquery
from django.db.models.expressions import RawSQL
from django.utils import timezone

from scoring.games import CardLine as EngineLine
from tournaments.errors import ServiceError
from tournaments.models import ENTRANT_NAME, CardLine, Entry, KeptAnswer, Player, Seat, Table
from tournaments.selectors.access import entry_link_used
from tournaments.selectors.compiled import Compiled
from tournaments.selectors.events import SCORING_FIELDS
from tournaments.selectors.report import report_saved
from tournaments.selectors.results import IN_PLAY
from tournaments.services.conflicts import retry_on_conflict
from tournaments.services.idempotency import (
    Answer,
    kept_answer_new,
    kept_as_replay,
    kept_replay,
)
from tournaments.services.report_write import TableChanged, db_table, lines_insert
from tournaments.services.results import agreed_lines, line_checked, line_preview, report_allowed
from tournaments.services.standings import standings_follow

REPORTED, VERIFIED = CardLine.Kind.REPORTED, CardLine.Kind.VERIFIED


# What a report reads of the link's entry, game and event (the rules' settings, a doubles
# event's style, a withdrawal), not the event's other ~40 columns. Another field read on this
# path would cost a query of its own (tests/tournaments/results/test_submission_queries.py).
_LOCKED_FIELDS = (
    "position",
    "table",
    "entry__event",
    "entry__player",
    "entry__team",
    "entry__status",
    "entry__withdrawn_after_game",
    "entry__previous_report_token",
    "entry__token_used_at",
    "game__number",
    "game__status",
    "game__event__style",
    *(f"game__event__{name}" for name in SCORING_FIELDS),
)


def _locked_seat(token: str, key: str):
    latest = (
        Seat.objects.filter(entry_id=OuterRef("entry_id"), game__status__in=IN_PLAY)
        .order_by("-game__number")
        .values("pk")[:1]
    )
    found = (
        Seat.objects.filter(entry__report_token=token, table__isnull=False, pk=Subquery(latest))
        .annotate(kept=Subquery(_kept(key).values("pk")[:1]))
        .select_related("entry", "game__event", "table")
        .only(*_LOCKED_FIELDS)
        .select_for_update(of=("table",))
        .order_by()
    )
    if connection.vendor == "postgresql":
        found = found.annotate(cards=RawSQL(_cards_sql(), (), output_field=Field()))
    return found


def _cards_sql() -> str:
    """The table's seats with their players' names and current lines, as ``_table_cards``'s
    rows, in one JSON array: a subquery of the locked read (PostgreSQL). Read at the start of
    that statement, before its lock was granted: ``lines_insert`` checks them again."""
    seat, entry, player, line = (db_table(m) for m in (Seat, Entry, Player, CardLine))
    return (
        "(SELECT json_agg(json_build_array(s.id, p.name, l.id, l.kind, l.game_points, l.plus,"
        " l.minus) ORDER BY s.position, l.id)"
        f" FROM {seat} s JOIN {entry} e ON e.id = s.entry_id"
        f" LEFT JOIN {player} p ON p.id = e.player_id"
        f" LEFT JOIN {line} l ON l.seat_id = s.id AND l.current"
        f" WHERE s.table_id = {seat}.table_id)"
    )


def _kept(key: str):
    """The answer kept for this link and key (a report sent again): read in the same statement,
    so a phone's second try costs one statement, not a write rolled back."""
    return KeptAnswer.objects.filter(entry_id=OuterRef("entry_id"), key=key)


def _table_cards(table_id: int):
    return (
        Seat.objects.filter(table_id=table_id)
        .annotate(now=FilteredRelation("card_lines", condition=Q(card_lines__current=True)))
        .order_by("position", "now__id")
        .values_list(
            "pk",
            f"entry__{ENTRANT_NAME}",
            "now__id",
            "now__kind",
            "now__game_points",
            "now__plus",
            "now__minus",
        )
    )


_LOCKED_SEAT = Compiled(_locked_seat, str, str)
_TABLE_CARDS = Compiled(_table_cards, int)


@dataclass(frozen=True)
class _Saved:
    answer: dict | None
    line_id: int | None
    replayed: bool = False
    status: int = 201


def report_by_link(
    *,
    token: str,
    won: bool,
    spread: int,
    game_number: int | None = None,
    key: str | None = None,
    print_: str = "",
    status: int = 201,
) -> Answer | None:
    """Save "I won / I lost by ``spread``" for the link ``token`` (see the module's note): the
    answer (``Answer``; a replay when ``key`` was kept before), or None when this is not a
    report of a game at a table (the caller's general path then answers). A refusal is a
    ``ServiceError``, a key used for another report a ``Conflict``."""
    try:
        try:
            saved = _report(token, won, spread, game_number, key, print_, status)
        except TableChanged:  # the other card came in while this one waited: decided again
            saved = _report(token, won, spread, game_number, key, print_, status, False)
        if isinstance(saved, _Refused):
            raise saved.error
    except (IntegrityError, ServiceError):
        replay = kept_replay_by_link(token=token, key=key, print_=print_) if key else None
        if replay is None:
            raise
        return replay
    if saved is None:
        return None
    return Answer(saved.status if saved.replayed else status, saved.answer, saved.replayed)


def kept_replay_by_link(*, token: str, key: str, print_: str) -> Answer | None:
    entry_id = Entry.objects.filter(report_token=token).values_list("pk", flat=True).first()
    return kept_replay(entry_id=entry_id, key=key, print_=print_) if entry_id else None


@dataclass(frozen=True)
class _Refused:
    """A refusal decided before any write, committed: at a ``ROLLBACK`` psycopg forgets every
    prepared statement, which would then be parsed and planned again (~0.5 ms, five times)."""

    error: ServiceError


def _still_saved(saved: _Saved | _Refused | None) -> _Saved | _Refused | None:
    """After a commit in doubt: the attempt's answer if its line is stored; a refusal stands."""
    if isinstance(saved, _Refused):
        return saved
    if saved is not None and saved.replayed:
        return saved
    if saved is None or not CardLine.objects.filter(pk=saved.line_id).exists():
        return None
    return saved


@retry_on_conflict(saved=_still_saved)
def _report(
    token, won, spread, game_number, key, print_, status, read_with_lock=True
) -> _Saved | _Refused | None:
    seat = _LOCKED_SEAT.first(token, key or "")
    if seat is None:
        return None
    if seat.kept is not None:  # sent again: the first answer, nothing written
        replay = kept_as_replay(KeptAnswer.objects.get(pk=seat.kept), print_=print_)
        return _Saved(replay.body, None, replayed=True, status=replay.status)
    if seat.game.event.in_teams:  # a doubles table: the team's card (``card_line_report``)
        return None
    table, entry = seat.table, seat.entry
    table.game = seat.game
    try:
        report_allowed(seat, table, game_number, by_player=True)
        line, _ = line_preview(event=seat.game.event, won=won, spread=spread)
        line = line_checked(seat, line)
    except ServiceError as refusal:  # nothing written yet: committed, not rolled back
        return _Refused(refusal)
    entry_link_used(entry=entry)
    names, reported, verified, retire, current = {}, {}, False, None, []
    cards = getattr(seat, "cards", None) if read_with_lock else None
    for seat_id, name, line_id, kind, points, plus, minus in (
        cards if cards is not None else _TABLE_CARDS.rows(table.pk)
    ):
        names[seat_id] = name
        if line_id is not None:
            current.append(line_id)
        if kind == REPORTED and seat_id == seat.pk:
            retire = line_id
        elif kind == REPORTED:
            reported[seat_id] = EngineLine(points, plus, minus)
        verified = verified or kind == VERIFIED
    if retire is not None:
        CardLine.objects.filter(pk=retire).update(current=False)
    mine = CardLine(
        seat_id=seat.pk,
        kind=REPORTED,
        game_points=line.game_points,
        plus=line.plus,
        minus=line.minus,
        source=CardLine.Source.PLAYER,
        reason="",
    )
    reported[seat.pk] = line
    in_order = dict(sorted(reported.items(), key=lambda item: list(names).index(item[0])))
    agreed = agreed_lines(in_order, verified, seat.game.event)
    if agreed:
        table.status, table.verified_at = Table.Status.VERIFIED, timezone.now()
    theirs = next((r for s, r in reported.items() if s != seat.pk), None)
    opponent = next((n for s, n in names.items() if s != seat.pk), "")
    answer = report_saved(table=table, line=mine, theirs=_as_card_line(theirs), opponent=opponent)
    kept = None
    if key:
        kept = kept_answer_new(
            entry_id=entry.pk, key=key, print_=print_, status=status, answer=answer
        )
        answer = kept.answer
    read = None
    if cards is not None:  # read before the lock was granted: checked again as it is written
        read = (table.pk, sorted(line_id for line_id in current if line_id != retire))
    lines_insert([mine, *agreed], verified=table if agreed else None, kept=kept, read=read)
    if agreed:
        standings_follow(event=seat.game.event)
    return _Saved(answer, mine.pk)


def _as_card_line(line: EngineLine | None) -> CardLine | None:
    if line is None:
        return None
    return CardLine(kind=REPORTED, game_points=line.game_points, plus=line.plus, minus=line.minus)
