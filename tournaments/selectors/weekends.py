"""Reading weekends: the public page of one (events, schedule, fees, registration), the list,
and the events a director may still add to one."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q

from tournaments.models import Entry, Event, EventRole, Weekend


@dataclass(frozen=True)
class WeekendEvent:
    id: int
    name: str
    kind: str
    kind_label: str
    starts_on: object
    entry_fee_cents: int
    capacity: int | None
    entered: int
    published: bool

    @property
    def places_left(self) -> int | None:
        return None if self.capacity is None else max(0, self.capacity - self.entered)


@dataclass(frozen=True)
class WeekendPage:
    weekend: Weekend
    events: list[WeekendEvent]
    schedule_lines: list[str]


KIND_ORDER = {Event.Kind.MAIN: 0, Event.Kind.CONSOLATION: 1, Event.Kind.SATELLITE: 2}


def weekend_events(*, weekend: Weekend) -> list[WeekendEvent]:
    """The weekend's events, the Main first, then the Consolation and the satellites by day,
    each with its fee, capacity and how many are entered (one query)."""
    rows = weekend.events.annotate(
        entered=Count("entries", filter=~Q(entries__status=Entry.Status.WITHDRAWN))
    ).order_by("starts_on", "id")
    events = [
        WeekendEvent(
            id=e.pk,
            name=e.name,
            kind=e.kind,
            kind_label=e.get_kind_display(),
            starts_on=e.starts_on,
            entry_fee_cents=e.entry_fee_cents,
            capacity=e.capacity,
            entered=e.entered,
            published=e.published,
        )
        for e in rows
    ]
    return sorted(events, key=lambda e: KIND_ORDER.get(e.kind, 3))


def weekend_page(*, weekend: Weekend) -> WeekendPage:
    lines = [line.strip() for line in weekend.schedule.splitlines() if line.strip()]
    return WeekendPage(
        weekend=weekend, events=weekend_events(weekend=weekend), schedule_lines=lines
    )


def weekends_listed():
    """Every weekend, the newest first (a weekend's page is public: it is a flyer)."""
    return Weekend.objects.select_related("club").order_by("-starts_on", "-id")


def weekend_get(*, weekend_id: int) -> Weekend | None:
    return Weekend.objects.select_related("club", "created_by").filter(pk=weekend_id).first()


def events_addable(*, weekend: Weekend, user) -> list[Event]:
    """Events ``user`` directs that are in no weekend yet (what the add form offers)."""
    directed = EventRole.objects.filter(user=user, role=EventRole.Role.DIRECTOR).values("event")
    return list(
        Event.objects.filter(pk__in=directed, weekend__isnull=True)
        .exclude(stage=Event.Stage.FINISHED)
        .order_by("-starts_on", "-id")[:100]
    )
