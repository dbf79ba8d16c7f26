"""Reading sanctioning (``services.sanctioning``): an event's state in words, the requests
waiting for the ACC office, and what it decided lately."""

from __future__ import annotations

from dataclasses import dataclass, replace

from tournaments.core.mrp import mrp_length_note
from tournaments.models import Event

SANCTIONABLE = (Event.Kind.MAIN, Event.Kind.CONSOLATION)


@dataclass(frozen=True)
class SanctionStatus:
    """``state``: ``sanctioned``, ``requested``, ``declined``, ``withdrawn``, ``not_asked`` or
    ``not_sanctionable``; ``words``: what the director reads; ``may_ask``: a request can be
    made now; ``note``: the ACC office's words with its last decision; ``mrp_note``: said at
    setup when no published MRP table covers the event's length (``core.mrp``), with the
    director's two choices."""

    state: str
    words: str
    may_ask: bool
    note: str
    mrp_note: str = ""


def event_sanction_status(*, event: Event) -> SanctionStatus:
    status = _status(event)
    if status.state == "not_sanctionable":
        return status
    return replace(status, mrp_note=mrp_length_note(event.kind, event.qualifying_games))


def _status(event: Event) -> SanctionStatus:
    note = event.sanction_note
    if event.kind not in SANCTIONABLE:
        return SanctionStatus(
            "not_sanctionable",
            f"A {event.get_kind_display().lower()} is not sanctioned: it earns no Master "
            "Rating Points.",
            False,
            "",
        )
    if event.in_teams:
        return SanctionStatus(
            "not_sanctionable",
            f"A {event.get_style_display()} event is not sanctioned: it earns no "
            "Master Rating Points (ACC doubles satellites carry none), and its results are "
            "never written to the national ledger.",
            False,
            "",
        )
    if event.sanctioned:
        return SanctionStatus(
            "sanctioned",
            "Sanctioned by the ACC office: once finalised, its Master Rating Points go to the "
            "national ledger.",
            False,
            note,
        )
    if event.sanction_requested_at is not None:
        return SanctionStatus(
            "requested",
            "Asked of the ACC office on "
            f"{event.sanction_requested_at:%-d %b %Y}: waiting for their answer. Until they "
            "sanction it, its results stay on Pegboard and earn no national MRPs.",
            False,
            note,
        )
    if event.sanction_decision in ("declined", "withdrawn"):
        said = "withdrew its sanction" if event.sanction_decision == "withdrawn" else "said no"
        return SanctionStatus(
            event.sanction_decision,
            f"Not sanctioned: the ACC office {said}"
            + (f" (“{note}”)" if note else "")
            + ". You may ask again once that is put right.",
            True,
            note,
        )
    return SanctionStatus(
        "not_asked",
        "Not sanctioned. Ask the ACC office if this is an ACC-sanctioned event: its results "
        "reach the national MRP ledger only once they sanction it.",
        True,
        note,
    )


def sanction_requests():
    """Events whose sanctioning waits for the ACC office, oldest request first."""
    return (
        Event.objects.filter(sanction_requested_at__isnull=False)
        .select_related("created_by")
        .order_by("sanction_requested_at", "id")
    )


def sanctioned_events():
    """Sanctioned events, most recently decided first (for the office to withdraw one)."""
    return (
        Event.objects.filter(sanctioned=True)
        .select_related("sanction_decided_by")
        .order_by("-sanction_decided_at", "-id")
    )
