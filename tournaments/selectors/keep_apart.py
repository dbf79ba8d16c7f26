"""The event's keep-apart screen, for its page and its API: the pairs kept apart, and the
registration wishes still open, each with the entrants it may mean (``services.keep_apart``:
wish, settle)."""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.core.keep_apart import wish_match
from tournaments.models import Entry, Event, KeepApart, RegistrationChoice
from tournaments.services.keep_apart import entrants_of, open_wishes


@dataclass(frozen=True)
class OpenWish:
    """A player's wish not settled yet: ``candidates`` are the entrants it may mean (empty:
    nobody of that name or ACC number is entered yet)."""

    choice: RegistrationChoice
    entry: Entry
    name: str
    acc_number: str
    candidates: list[Entry]


@dataclass(frozen=True)
class KeepApartScreen:
    pairs: list[KeepApart]
    wishes: list[OpenWish]


def keep_apart_of_event(*, event: Event) -> KeepApartScreen:
    """The pairs, then the open wishes with their candidates (three queries, four with a wish)."""
    pairs = list(
        KeepApart.objects.filter(event=event)
        .select_related("entry_a__player", "entry_b__player")
        .order_by("pk")
    )
    found = list(open_wishes(event).select_related("request", "entry__player"))
    if not found:
        return KeepApartScreen(pairs, [])
    entrants = entrants_of(event)
    matches = {
        w.pk: wish_match(
            name=w.request.keep_apart_name,
            acc_number=w.request.keep_apart_acc,
            entrants=entrants,
            wisher=w.entry_id,
        ).candidates
        for w in found
    }
    wanted = {pk for ids in matches.values() for pk in ids}
    entries = Entry.objects.filter(pk__in=wanted).select_related("player", "player__home_club")
    by_id = {e.pk: e for e in entries}
    wishes = [
        OpenWish(
            choice=w,
            entry=w.entry,
            name=w.request.keep_apart_name,
            acc_number=w.request.keep_apart_acc,
            candidates=[by_id[pk] for pk in matches[w.pk]],
        )
        for w in found
    ]
    return KeepApartScreen(pairs, wishes)
