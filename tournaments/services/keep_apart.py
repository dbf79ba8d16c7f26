"""A director's pairs of entrants to keep apart in the qualifying round (``core.keep_apart``
honours them in the pairing when the field allows it)."""

from __future__ import annotations

from django.db import transaction

from tournaments.errors import ServiceError
from tournaments.models import Entry, Event, KeepApart
from tournaments.services.audit import Kind, audit_record


@transaction.atomic
def keep_apart_add(*, event: Event, user, entry_ids: tuple[int, int], note: str = "") -> KeepApart:
    """Keep two entrants of ``event`` apart in the games not paired yet."""
    first, second = sorted(int(i) for i in entry_ids)
    if first == second:
        raise ServiceError("Choose two different players.", field="entry_b", code="same_player")
    entries = {e.pk: e for e in Entry.objects.filter(event=event, pk__in=(first, second))}
    if len(entries) != 2:
        raise ServiceError(
            "Both players must be entered in this event.", field="entry_b", code="not_entered"
        )
    note = (note or "").strip()[:200]
    pair, created = KeepApart.objects.get_or_create(
        event=event,
        entry_a=entries[first],
        entry_b=entries[second],
        defaults={"note": note, "created_by": user},
    )
    names = f"{entries[first].name} and {entries[second].name}"
    audit_record(
        event=event,
        actor=user,
        kind=Kind.PAIRINGS,
        action="keep_apart_add",
        summary=f"{names} are kept apart" + ("" if created else " (already were)"),
        after={"entries": [first, second], "note": pair.note},
    )
    return pair


@transaction.atomic
def keep_apart_remove(*, event: Event, user, pair_id: int) -> None:
    pair = (
        KeepApart.objects.filter(event=event, pk=pair_id)
        .select_related("entry_a", "entry_b")
        .first()
    )
    if pair is None:
        raise ServiceError("Those two are not kept apart here.", code="no_such_pair")
    names = f"{pair.entry_a.name} and {pair.entry_b.name}"
    audit_record(
        event=event,
        actor=user,
        kind=Kind.PAIRINGS,
        action="keep_apart_remove",
        summary=f"{names} may meet again",
        before={"entries": [pair.entry_a_id, pair.entry_b_id], "note": pair.note},
    )
    pair.delete()
