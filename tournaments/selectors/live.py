"""Versions of what live pages show, for conditional requests (ETag, 304 Not Modified).

A phone polls its page every few seconds; most polls must cost one cheap query, not a page.
``entry_version`` and ``event_version`` read, in ONE query each, the newest id or time of every
row a player's page, or an event's board, standings, bracket and wall, are built from. Every
write those pages can show leaves such a trace: lines are only ever added (a correction adds a
line and retires the old one), games and tables stamp when they are published, closed or
verified, the standings job adds a snapshot, playoff matches stamp their decision and clock.
The version also carries a time bucket (``SAFETY_SECONDS``), so anything not traced here is
shown within that time at worst, and time-limited parts (recent notices) age out.

Building those queries through the ORM costs more than running them (a poll is answered in a
few milliseconds), so each is compiled to SQL once per process (``selectors.compiled``) and run
for the id asked (``_run``). What is the same for every poll of an event (its games and
playoff, and the event's whole version) is kept ``LIVE_SHARE_SECONDS`` (half a second) in the
process's memory (``_shared``): a thousand phones share a query a worker each half second, and
a change still shows within the poll and that half second.
"""

from __future__ import annotations

import functools
import hashlib
import math
import time

from django.conf import settings
from django.core.cache import caches
from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery

from tournaments.models import (
    ENTRANT_NAME,
    CardLine,
    Entry,
    Event,
    Game,
    JudgeCall,
    Match,
    MatchGame,
    MatchLine,
    Notice,
    Playoff,
    Seat,
    StandingsSnapshot,
    Table,
)
from tournaments.selectors.compiled import Compiled
from tournaments.selectors.events import SCORING_FIELDS

# Every page is rendered afresh at least this often: a thousand phones cost a thousand
# renderings per period, so it is minutes, not seconds (a notice shown for 30 minutes leaves
# the page within 5 minutes after).
SAFETY_SECONDS = 300
_MISSING = object()


@functools.cache
def _compiled(build, kind: type) -> Compiled:
    return Compiled(build, kind)


def _shared(kind: str, pk: int, build) -> tuple | None:
    """``_run(build, pk)``, kept ``LIVE_SHARE_SECONDS`` in this process's memory: the hundreds of
    phones and screens polling one event within that time share one query."""
    seconds = settings.LIVE_SHARE_SECONDS
    if not seconds:
        return _run(build, pk)
    key = f"{kind}:{pk}"
    row = caches["live"].get(key, _MISSING)
    if row is _MISSING:
        row = _run(build, pk)
        caches["live"].set(key, row, seconds)
    return row


def _run(build, key: int | str) -> tuple | None:
    """The one row ``build(key)`` selects, from SQL compiled once (``selectors.compiled``)."""
    return _compiled(build, type(key)).first(key)


def _newest(queryset: QuerySet, field: str) -> Subquery:
    """The newest value of ``field`` in ``queryset`` (null last), as a subquery."""
    return Subquery(queryset.order_by(F(field).desc(nulls_last=True)).values(field)[:1])


def _count(queryset: QuerySet, group: str) -> Subquery:
    """How many rows ``queryset`` has (grouped by its ``group`` field), as a subquery."""
    return Subquery(queryset.order_by().values(group).annotate(n=Count("pk")).values("n")[:1])


def _digest(kind: str, pk: int, row) -> str:
    # Each page's time bucket starts at its own offset: a thousand phones do not all fetch their
    # whole part in the same few seconds when the minute turns.
    offset = (pk * 7919) % SAFETY_SECONDS
    bucket = int((time.time() + offset) // SAFETY_SECONDS)
    return hashlib.blake2b(repr((kind, pk, row, bucket)).encode(), digest_size=12).hexdigest()


def _playoff_parts(event_ref) -> dict:
    """Everything a bracket shows changes one of these (any decision moves the next round)."""
    matches = Match.objects.filter(playoff__event=event_ref)
    return {
        "v_playoff": _newest(Playoff.objects.filter(event=event_ref), "rebuilt_at"),
        "v_playoff_made": _newest(Playoff.objects.filter(event=event_ref), "id"),
        "v_decided": _newest(matches, "decided_at"),
        "v_clock": _newest(matches, "clock_started_at"),
        "v_match_game": _newest(MatchGame.objects.filter(match__playoff__event=event_ref), "id"),
        "v_match_verified": _newest(
            MatchGame.objects.filter(match__playoff__event=event_ref), "verified_at"
        ),
        "v_match_line": _newest(
            MatchLine.objects.filter(match_game__match__playoff__event=event_ref), "id"
        ),
    }


# The names of ``_game_parts`` and ``_playoff_parts``, in the order the versions read them.
_GAMES_AND_PLAYOFF = (
    "v_published",
    "v_closed",
    "v_paired",
    "v_playoff",
    "v_playoff_made",
    "v_decided",
    "v_clock",
    "v_match_game",
    "v_match_verified",
    "v_match_line",
)


def _game_parts(event_ref) -> dict:
    games = Game.objects.filter(event=event_ref)
    return {
        "v_published": _newest(games, "published_at"),
        "v_closed": _newest(games, "closed_at"),
        "v_paired": _newest(games, "paired_at"),
    }


def entry_version(*, entry: Entry) -> str:
    """What the player's page shows: their tables' lines, their seats and notices, and the
    event's games and playoff (``_shared``: the same for every player of the event)."""
    return _entry_digest(_run(_entry_row, entry.pk))


def entry_poll_by_token(*, token: str) -> tuple[str, float] | None:
    """The version of the player's page whose private link this is, and how many seconds its
    phone waits before the next poll (``poll_seconds``); None for a link that is not valid."""
    row = _run(_entry_row, token) if token else None
    if row is None:
        return None
    return _entry_digest(row), poll_seconds(event_id=row[1])


def poll_seconds(*, event_id: int) -> float:
    """How often each player's phone asks whether its page changed: every
    ``LIVE_POLL_SECONDS``, or less often in a large field, so that the phones of one event
    together poll at most ``LIVE_POLL_BUDGET`` times a second (1,024 phones at 100 a second:
    every 10.5 s). A phone that has just reported asks again at once (static/js/live.js), so
    only the news of the opponent's card waits for the next poll."""
    phones = (_shared("phones", event_id, _phones_row) or (0,))[0] or 0
    seconds = max(settings.LIVE_POLL_SECONDS, phones / settings.LIVE_POLL_BUDGET)
    return math.ceil(seconds * 2) / 2  # to the half second


def _phones_row(pk: int) -> QuerySet:
    """How many players of the event may be polling: its entries not withdrawn."""
    entries = Entry.objects.filter(event=OuterRef("pk")).exclude(status=Entry.Status.WITHDRAWN)
    return Event.objects.filter(pk=pk).annotate(n=_count(entries, "event")).values_list("n")


def _entry_digest(row: tuple) -> str:
    pk, event_id = row[0], row[1]
    return _digest("entry", pk, (row, _shared("games", event_id, _games_row)))


def _entry_parts(me) -> dict:
    """The newest trace of everything a player's page shows of its own entry."""
    return {
        # The player's own lines and their tables' lines, each found through the indexes
        # (one query with "or" joined the whole event's seats: it grew with the field).
        "v_line": _newest(CardLine.objects.filter(seat__entry=me), "id"),
        "v_table_line": _newest(CardLine.objects.filter(seat__table__seats__entry=me), "id"),
        "v_seat": _newest(Seat.objects.filter(entry=me), "id"),
        "v_notice": _newest(Notice.objects.filter(entry=me), "id"),
        "v_notice_seen": _newest(Notice.objects.filter(entry=me), "seen_at"),
    }


# The entry's row its page's version is made of, in this order.
_ENTRY_FIELDS = (
    "pk",
    "event_id",
    "status",
    "withdrawn_after_game",
    "missed_games",
    "report_token",
    "v_line",
    "v_table_line",
    "v_seat",
    "v_notice",
    "v_notice_seen",
)


def _entry_row(key: int | str) -> QuerySet:
    """An entry by id, or by its private link."""
    lookup = {"report_token": key} if isinstance(key, str) else {"pk": key}
    return (
        Entry.objects.filter(**lookup)
        .order_by()
        .annotate(**_entry_parts(OuterRef("pk")))
        .values_list(*_ENTRY_FIELDS)
    )


# What a player's page reads of its entry, player and event (31 columns): not the entry's
# contact details, the event's money, sanctioning and playoff-draw settings (all 72 made into
# Python values at every opening were 0.2 ms of its 4). Another field read on the page would
# cost a query of its own (tests/tournaments/live/test_opening_columns.py).
_PAGE_FIELDS = (
    "event_id",
    "player_id",
    "team_id",
    "status",
    "joined_from_game",
    "withdrawn_after_game",
    "missed_games",
    "report_token",
    "previous_report_token",
    "token_used_at",
    ENTRANT_NAME,  # the page's title: the entry's name (Entry.name)
    "player__user_id",
    "player__email",  # a signed-in player's link offer says whether a code is e-mailed
    "event__name",
    "event__kind",
    "event__stage",
    "event__parent_id",
    "event__published",
    "event__style",
    "event__qualifying_games",
    "event__sit_out_game_points",  # a player who sits out a game is told what they get
    "event__sit_out_spread",
    *(f"event__{name}" for name in SCORING_FIELDS),
)


def _entry_with_parts(token: str) -> QuerySet:
    """The entry whose private link this is, as ``selectors.access`` reads it (its player and
    event), with its version's parts."""
    return (
        Entry.objects.select_related("player", "event")
        .filter(report_token=token)
        .only(*_PAGE_FIELDS)
        .order_by()
        .annotate(**_entry_parts(OuterRef("pk")))[:1]
    )


_ENTRY_WITH_PARTS = Compiled(_entry_with_parts, str)


def entry_and_poll_by_token(*, token: str) -> tuple[Entry, tuple[str, float]] | None:
    """The entry of a private link and its page's version and poll seconds, in ONE query (a
    phone opening its page needs both; ``entry_poll_by_token`` and then
    ``selectors.access.entry_get_by_token`` were two round trips). The entry carries its
    version's parts (``v_line``, ``v_notice``...), read in the same statement: a part that is
    None says there is nothing of that kind to read (``selectors.report.player_state``).
    None for a link that is not valid."""
    entry = _ENTRY_WITH_PARTS.first(token) if token else None
    if entry is None:
        return None
    row = tuple(getattr(entry, field) for field in _ENTRY_FIELDS)
    return entry, (_entry_digest(row), poll_seconds(event_id=entry.event_id))


def _games_row(pk: int) -> QuerySet:
    """The event's games and playoff: what every player's page shows alike."""
    here = OuterRef("pk")
    return (
        Event.objects.filter(pk=pk)
        .order_by()
        .annotate(**_game_parts(here), **_playoff_parts(here))
        .values_list(
            *_GAMES_AND_PLAYOFF,
        )
    )


def event_version(*, event: Event) -> str:
    """What the director's board and the judges' calls show: every line and table too."""
    return _digest("event", event.pk, _shared("event", event.pk, _event_row))


def _public_parts(here) -> dict:
    """What the public pages are built from; the staff's pages show all of it too."""
    return {
        "v_standings": _newest(StandingsSnapshot.objects.filter(event=here), "id"),
        "v_entry": _newest(Entry.objects.filter(event=here), "id"),
        "v_withdrawn": _count(
            Entry.objects.filter(event=here, status=Entry.Status.WITHDRAWN), "event"
        ),
        **_game_parts(here),
        **_playoff_parts(here),
    }


_PUBLIC = ("v_standings", "v_entry", "v_withdrawn", *_GAMES_AND_PLAYOFF)


def _calls_of(here) -> Q:
    """Judge calls of the event: to its tables and to its playoff matches."""
    return Q(table__game__event=here) | Q(match__playoff__event=here)


def _event_row(pk: int) -> QuerySet:
    here = OuterRef("pk")
    return (
        Event.objects.filter(pk=pk)
        .order_by()
        .annotate(
            v_line=_newest(CardLine.objects.filter(seat__game__event=here), "id"),
            v_verified=_newest(Table.objects.filter(game__event=here), "verified_at"),
            v_call=_newest(JudgeCall.objects.filter(_calls_of(here)), "id"),
            v_answered=_newest(JudgeCall.objects.filter(_calls_of(here)), "answered_at"),
            v_checked_in=_newest(Entry.objects.filter(event=here), "checked_in_at"),
            **_public_parts(here),
        )
        .values_list(
            "stage",
            "published",
            "finalised_at",
            "v_line",
            "v_verified",
            "v_call",
            "v_answered",
            "v_checked_in",
            *_PUBLIC,
        )
    )


def public_version(*, event: Event) -> str:
    """What the public standings, bracket and wall show: the standings snapshots, the games'
    pairings, the playoff, the entries. Not each card line or verified table: those reach
    these pages through the standings job's next snapshot, so a burst of reports does not
    make every spectator's page new at every report."""
    return _digest("public", event.pk, _shared("public", event.pk, _public_row))


def _public_row(pk: int) -> QuerySet:
    here = OuterRef("pk")
    return (
        Event.objects.filter(pk=pk)
        .order_by()
        .annotate(**_public_parts(here))
        .values_list("name", "stage", "published", "finalised_at", *_PUBLIC)
    )


# Made now, not at their first poll, so a new worker compiles them before it takes a request
# (``config.warm``).
for _build, _kind in (
    (_entry_row, str),
    (_entry_row, int),
    (_phones_row, int),
    (_games_row, int),
    (_event_row, int),
    (_public_row, int),
):
    _compiled(_build, _kind)


def game_version(*, game: Game) -> str:
    """What a game's page shows: its state and pairing times, and its pairing job's progress."""
    row = (
        Game.objects.filter(pk=game.pk)
        .values_list(
            "status",
            "paired_at",
            "published_at",
            "closed_at",
            "job__status",
            "job__progress",
            "job__message",
            "job__error",
        )  # fmt: skip
        .first()
    )
    return _digest("game", game.pk, row)


def job_version(*, job) -> str:
    """What a job's page shows: its state, progress and words."""
    row = (
        type(job)
        .objects.filter(pk=job.pk)
        .values_list("status", "progress", "message", "error")
        .first()
    )
    return _digest("job", job.pk, row)
