"""Reading events, with the one place that decides who may manage or see one."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.db.models import Count, Q, QuerySet, Sum

from scoring.games import ScoringSettings
from tournaments.core.judging import judges_needed
from tournaments.models import Entry, Event, EventRole
from tournaments.selectors.people import person_name


def entries_of_event_qs() -> QuerySet[Entry]:
    return Entry.objects.select_related("player__home_club", "team")


def entries_of_event(*, event: Event) -> QuerySet[Entry]:
    """Every entry of the event, with player and club, alphabetically."""
    return entries_of_event_qs().filter(event=event)


def events_directed_by(*, user) -> QuerySet[Event]:
    events = (
        Event.objects.all()
        if user.is_superuser
        else Event.objects.filter(roles__user=user, roles__role=EventRole.Role.DIRECTOR)
    )
    return events.annotate(
        entrants=Count("entries", filter=~Q(entries__status=Entry.Status.WITHDRAWN))
    ).distinct()


def events_published() -> QuerySet[Event]:
    return Event.objects.filter(published=True)


# The engine's settings and the event's fields they come from (a report reads these alone).
_SCORING = {
    "target": "target_score",
    "skunk_margin": "skunk_margin",
    "double_skunk_margin": "double_skunk_margin",
    "win_points": "win_points",
    "skunk_points": "skunk_points",
    "double_skunk_points": "double_skunk_points",
}
SCORING_FIELDS = tuple(_SCORING.values())


def event_scoring_settings(*, event: Event) -> ScoringSettings:
    return _scoring_settings(*(getattr(event, field) for field in SCORING_FIELDS))


@functools.lru_cache(maxsize=256, typed=True)
def _scoring_settings(*values) -> ScoringSettings:
    """The engine's settings for these values of ``SCORING_FIELDS``, made and checked once per
    process (they are frozen: one shared by every event that plays by them). A report asked
    for them three times, each made and checked anew. ``typed``: ``True`` or ``121.0`` is not
    the ``1`` or ``121`` kept before; the engine refuses them (``_require_int``)."""
    return ScoringSettings(**dict(zip(_SCORING, values, strict=True)))


def event_judges_needed(*, event: Event) -> int:
    """The judges a ruling in ``event`` needs (three on appeal): ``core.judging``."""
    return judges_needed(setting=event.judges_per_ruling, sanctioned=event.sanctioned)


def event_play_started(*, event: Event) -> bool:
    return event.games.exclude(status="not_paired").exists()


def event_next_game_number(*, event: Event) -> int:
    """The first game not yet paired: where a late entry joins."""
    last = event.games.exclude(status="not_paired").order_by("-number").first()
    return last.number + 1 if last else 1


def entries_in_game(*, event: Event, number: int) -> list[Entry]:
    entries = Entry.objects.filter(event=event).exclude(status=Entry.Status.REGISTERED)
    return [entry for entry in entries.select_related("player") if entry.plays_in(number)]


def pairing_records(*, event: Event, entry_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Each entry's record for "by standings" pairing: (game points, net spread) from its
    verified card lines, in one query; an entry with no verified line yet has (0, 0)."""
    from tournaments.models import CardLine

    totals = (
        CardLine.objects.filter(
            seat__game__event=event, seat__entry_id__in=entry_ids, kind="verified", current=True
        )
        .values("seat__entry_id")
        .annotate(points=Sum("game_points"), net=Sum("plus") - Sum("minus"))
        .order_by()
    )
    records = {entry_id: (0, 0) for entry_id in entry_ids}
    records.update({row["seat__entry_id"]: (row["points"], row["net"]) for row in totals})
    return records


@dataclass(frozen=True)
class RoleHolder:
    """One person's role in an event, named as the pages name people."""

    id: int
    user_id: int
    username: str
    name: str
    role: str
    role_label: str


def event_role_holders(*, event: Event) -> list[RoleHolder]:
    """Directors, then cross-checkers, then judges, each by name, in one query."""
    order = {role: i for i, role in enumerate(EventRole.Role.values)}
    grants = EventRole.objects.filter(event=event).select_related("user__player")
    holders = [
        RoleHolder(
            g.pk, g.user_id, g.user.get_username(), person_name(g.user), g.role,
            g.get_role_display(),
        )
        for g in grants
    ]  # fmt: skip
    return sorted(holders, key=lambda h: (order[h.role], h.name.casefold(), h.id))
