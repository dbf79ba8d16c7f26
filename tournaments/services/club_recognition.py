"""ACC club recognition: what puts a club's nights in the players' skill ratings and the
national Grass Roots table (terms in ``models.clubs`` and ``selectors.club_recognition``).

- ask: a director of the club asks the ACC office to recognise it as an ACC club, and may
  withdraw the request while it waits.
- decide: the ACC office (administrators, and people given the ``sanction_event`` permission:
  the same people who sanction events) grants or declines it with a note the club's directors
  read; a granted recognition may be withdrawn later, again with a note.
- what follows: every decision that changes whether the club is recognised asks for a full
  ratings recompute (a job) when the club has a finished night: its nights enter or leave
  the ratings. The national Grass Roots table reads recognition as it is, and the club's own
  season table and night cards never change with it.

Every step is a row in the club's history (kind "recognition").
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.errors import ServiceError
from tournaments.models import Club, Event
from tournaments.selectors.access import club_directs, may_sanction
from tournaments.services.club_history import ClubKind, club_audit_record
from tournaments.services.ratings import ratings_recompute_request


def _state(club: Club) -> dict:
    return {
        "recognised": club.recognised,
        "requested": club.recognition_requested_at is not None,
        "decision": club.recognition_decision,
        "note": club.recognition_note,
    }


def _locked(club: Club) -> Club:
    return Club.objects.select_for_update().get(pk=club.pk)


def _record(club: Club, user, action: str, summary: str, before: dict) -> None:
    club_audit_record(
        club=club, actor=user, kind=ClubKind.RECOGNITION, action=action, summary=summary,
        before=before, after=_state(club),
    )  # fmt: skip


def _director(club: Club, user) -> None:
    if not club_directs(club=club, user=user):
        raise ServiceError(
            "Only the club's directors ask for its recognition: ask one of them (the club's "
            "page names them).",
            code="not_director",
        )


@transaction.atomic
def club_recognition_request(*, club: Club, user) -> Club:
    """A director asks the ACC office to recognise the club."""
    club = _locked(club)
    _director(club, user)
    if club.recognised:
        raise ServiceError("This club is recognised already.", code="already_recognised")
    if club.recognition_requested_at is not None:
        raise ServiceError(
            "The ACC office has this request already; it is waiting for their answer.",
            code="already_requested",
        )
    before = _state(club)
    club.recognition_requested_at = timezone.now()
    club.save(update_fields=["recognition_requested_at"])
    _record(club, user, "club_recognition_request", "Recognition asked of the ACC office", before)
    return club


@transaction.atomic
def club_recognition_request_withdraw(*, club: Club, user) -> Club:
    """A director takes back a request the office has not answered."""
    club = _locked(club)
    _director(club, user)
    if club.recognition_requested_at is None:
        raise ServiceError("No request is waiting: ask the ACC office first.", code="not_requested")
    before = _state(club)
    club.recognition_requested_at = None
    club.save(update_fields=["recognition_requested_at"])
    _record(club, user, "club_recognition_request_withdraw", "Recognition request withdrawn",
            before)  # fmt: skip
    return club


def _office(user) -> None:
    if not may_sanction(user=user):
        raise ServiceError(
            "Only the ACC office or an administrator decides recognition: the club's directors "
            "ask for it on the club's page.",
            code="not_office",
        )


def _decide(club: Club, user, *, decision: str, note: str) -> dict:
    before = _state(club)
    now = timezone.now()
    club.recognised = decision == "granted"
    club.recognised_at = now if club.recognised else None
    club.recognition_decision = decision
    club.recognition_requested_at = None
    club.recognition_decided_at, club.recognition_decided_by = now, user
    club.recognition_note = note.strip()[:300]
    club.save(
        update_fields=[
            "recognised", "recognised_at", "recognition_decision", "recognition_requested_at",
            "recognition_decided_at", "recognition_decided_by", "recognition_note",
        ]
    )  # fmt: skip
    return before


def _ratings_follow(club: Club, user) -> None:
    """The club's finished nights enter or leave the ratings: every rating is worked out again."""
    nights = Event.objects.filter(club=club, kind=Event.Kind.CLUB_NIGHT)
    if nights.filter(stage=Event.Stage.FINISHED).exists():
        ratings_recompute_request(user=user)


def _note_required(note: str) -> None:
    if not note.strip():
        raise ServiceError(
            "Say why, for the club's directors: they read it on the club's page.",
            field="note",
            code="required",
        )


@transaction.atomic
def club_recognition_grant(*, club: Club, user, note: str = "") -> Club:
    """The ACC office recognises the club (asked for or not)."""
    _office(user)
    club = _locked(club)
    if club.recognised:
        raise ServiceError("This club is recognised already.", code="already_recognised")
    before = _decide(club, user, decision="granted", note=note)
    _record(club, user, "club_recognition_grant", "Recognised by the ACC office", before)
    _ratings_follow(club, user)
    return club


@transaction.atomic
def club_recognition_decline(*, club: Club, user, note: str) -> Club:
    """The ACC office declines a request, saying why (the club's directors read it)."""
    _office(user)
    club = _locked(club)
    if club.recognition_requested_at is None:
        raise ServiceError(
            "No request is waiting: a declined club's directors may ask again.",
            code="not_requested",
        )
    _note_required(note)
    before = _decide(club, user, decision="declined", note=note)
    _record(club, user, "club_recognition_decline", f"Recognition declined: {note.strip()}",
            before)  # fmt: skip
    return club


@transaction.atomic
def club_recognition_revoke(*, club: Club, user, note: str) -> Club:
    """The ACC office withdraws a recognition, saying why; the club's nights leave the ratings
    and the national table (its own season table keeps them)."""
    _office(user)
    club = _locked(club)
    if not club.recognised:
        raise ServiceError(
            "This club is not recognised: there is nothing to withdraw.", code="not_recognised"
        )
    _note_required(note)
    before = _decide(club, user, decision="withdrawn", note=note)
    _record(club, user, "club_recognition_revoke", f"Recognition withdrawn: {note.strip()}",
            before)  # fmt: skip
    _ratings_follow(club, user)
    return club
