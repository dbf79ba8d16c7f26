"""Versions of what live pages show, for conditional requests (ETag, 304 Not Modified).

A phone polls its page every few seconds; most polls must cost one cheap query, not a page.
``entry_version`` and ``event_version`` read, in ONE query each, the newest id or time of every
row a player's page, or an event's board, standings, bracket and wall, are built from. Every
write those pages can show leaves such a trace: lines are only ever added (a correction adds a
line and retires the old one), games and tables stamp when they are published, closed or
verified, the standings job adds a snapshot, playoff matches stamp their decision and clock.
The version also carries a time bucket (``SAFETY_SECONDS``), so anything not traced here is
shown within that time at worst, and time-limited parts (recent notices) age out.
"""

from __future__ import annotations

import hashlib
import time

from django.db.models import Count, F, OuterRef, Q, QuerySet, Subquery

from tournaments.models import (
    CardLine,
    Entry,
    Event,
    Game,
    Match,
    MatchGame,
    MatchLine,
    Notice,
    Playoff,
    Seat,
    StandingsSnapshot,
    Table,
)

SAFETY_SECONDS = 60


def _newest(queryset: QuerySet, field: str) -> Subquery:
    """The newest value of ``field`` in ``queryset`` (null last), as a subquery."""
    return Subquery(queryset.order_by(F(field).desc(nulls_last=True)).values(field)[:1])


def _count(queryset: QuerySet, group: str) -> Subquery:
    """How many rows ``queryset`` has (grouped by its ``group`` field), as a subquery."""
    return Subquery(queryset.order_by().values(group).annotate(n=Count("pk")).values("n")[:1])


def _digest(*parts) -> str:
    parts = (*parts, int(time.time() // SAFETY_SECONDS))
    return hashlib.blake2b(repr(parts).encode(), digest_size=12).hexdigest()


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


def _game_parts(event_ref) -> dict:
    games = Game.objects.filter(event=event_ref)
    return {
        "v_published": _newest(games, "published_at"),
        "v_closed": _newest(games, "closed_at"),
        "v_paired": _newest(games, "paired_at"),
    }


def entry_version(*, entry: Entry) -> str:
    """What the player's page shows: their tables' lines, the games, notices, their playoff."""
    me = OuterRef("pk")
    event = OuterRef("event_id")
    row = (
        Entry.objects.filter(pk=entry.pk)
        .annotate(
            v_line=_newest(
                CardLine.objects.filter(Q(seat__table__seats__entry=me) | Q(seat__entry=me)), "id"
            ),
            v_seat=_newest(Seat.objects.filter(entry=me), "id"),
            v_notice=_newest(Notice.objects.filter(entry=me), "id"),
            v_notice_seen=_newest(Notice.objects.filter(entry=me), "seen_at"),
            **_game_parts(event),
            **_playoff_parts(event),
        )
        .values_list(
            "status",
            "withdrawn_after_game",
            "missed_games",
            "report_token",
            "v_line",
            "v_seat",
            "v_notice",
            "v_notice_seen",
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
        .first()
    )
    return _digest("entry", entry.pk, row)


def event_version(*, event: Event) -> str:
    """What the board, standings, bracket and wall show, all in one version."""
    here = OuterRef("pk")
    row = (
        Event.objects.filter(pk=event.pk)
        .annotate(
            v_line=_newest(CardLine.objects.filter(seat__game__event=here), "id"),
            v_verified=_newest(Table.objects.filter(game__event=here), "verified_at"),
            v_standings=_newest(StandingsSnapshot.objects.filter(event=here), "id"),
            v_entry=_newest(Entry.objects.filter(event=here), "id"),
            v_checked_in=_newest(Entry.objects.filter(event=here), "checked_in_at"),
            v_withdrawn=_count(
                Entry.objects.filter(event=here, status=Entry.Status.WITHDRAWN), "event"
            ),
            **_game_parts(here),
            **_playoff_parts(here),
        )
        .values_list(
            "stage",
            "published",
            "finalised_at",
            "v_line",
            "v_verified",
            "v_standings",
            "v_entry",
            "v_checked_in",
            "v_withdrawn",
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
        .first()
    )
    return _digest("event", event.pk, row)
