"""Reading club recognition (``services.club_recognition``): a club's state in words, the
requests waiting for the ACC office, and which events reach a player's shared record.

- rated event: a finished singles event that is sanctioned by the ACC office, or a club
  night of a recognised club (``RATED_EVENTS``). Anyone may make an event or a club, so
  nothing else reaches the players' skill ratings.
- shared record: what a player's own page shows of the events they played. A night of a club
  the ACC office has not recognised is that club's own business: it stays on its club's page
  and season table, and off the player's page (``SHARED_RECORD``), the ratings and the
  national Grass Roots table.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q

from tournaments.models import Club, Event

CLUB_NIGHT = Event.Kind.CLUB_NIGHT
RATED_EVENTS = Q(sanctioned=True) | Q(kind=CLUB_NIGHT, club__recognised=True)
SHARED_RECORD = (
    ~Q(event__kind=CLUB_NIGHT) | Q(event__club__isnull=True) | Q(event__club__recognised=True)
)


@dataclass(frozen=True)
class RecognitionStatus:
    """``state``: ``recognised``, ``requested``, ``declined``, ``withdrawn`` or ``not_asked``;
    ``words``: what everyone reads on the club's page; ``may_ask``: a request can be made now;
    ``note``: the ACC office's words with its last decision."""

    state: str
    words: str
    may_ask: bool
    note: str


UNTIL = (
    "Until the ACC office recognises the club, its nights count only in its own season table: "
    "they do not reach the players' skill ratings or the national Grass Roots table."
)


def club_recognition_status(*, club: Club) -> RecognitionStatus:
    note = club.recognition_note
    if club.recognised:
        return RecognitionStatus(
            "recognised",
            "Recognised by the ACC office as an ACC club: its nights count in the players' skill "
            "ratings and the national Grass Roots table.",
            False,
            note,
        )
    if club.recognition_requested_at is not None:
        return RecognitionStatus(
            "requested",
            f"Asked of the ACC office on {club.recognition_requested_at:%-d %b %Y}: waiting for "
            f"their answer. {UNTIL}",
            False,
            note,
        )
    if club.recognition_decision in ("declined", "withdrawn"):
        said = "withdrew its recognition" if club.recognition_decision == "withdrawn" else "said no"
        return RecognitionStatus(
            club.recognition_decision,
            f"Not recognised: the ACC office {said}"
            + (f" (“{note}”)" if note else "")
            + f". {UNTIL} You may ask again once that is put right.",
            True,
            note,
        )
    return RecognitionStatus(
        "not_asked",
        f"Not recognised by the ACC office yet. {UNTIL} A director of the club asks the ACC "
        "office here.",
        True,
        note,
    )


def recognition_requests():
    """Clubs whose recognition waits for the ACC office, oldest request first."""
    return Club.objects.filter(recognition_requested_at__isnull=False).order_by(
        "recognition_requested_at", "id"
    )


def recognised_clubs():
    """Recognised clubs, most recently granted first (for the office to withdraw one)."""
    return (
        Club.objects.filter(recognised=True)
        .select_related("recognition_decided_by")
        .order_by("-recognised_at", "name")
    )
