"""Administrators tidy the list of clubs: merge two clubs that are one, remove one made by
mistake (an import's misspelling, say).

- merge: everything of the merged club moves to the one kept: its nights (each night's
  history says so, and its cards are written again under the kept club's season and points
  rule), its night cards and awards, its members (players whose home club it was) and its
  directors, and its history (with a row saying so); then the merged club is removed. Its
  nights take the kept club's recognition by the ACC office: when the two differ, every
  rating is worked out again.
- remove: only a club nothing names: no nights, no members, no awards. A refusal names each
  thing in the way and the way forward (merge it into the club it should be).
"""

from __future__ import annotations

from django.db import transaction

from tournaments.errors import ServiceError
from tournaments.models import Club, ClubAuditEntry, ClubAward, ClubRole, Event, NightCard, Player
from tournaments.services.audit import Kind, audit_record
from tournaments.services.club_history import ClubKind, club_audit_record
from tournaments.services.night_cards import night_cards_write
from tournaments.services.ratings import ratings_recompute_request

ADMIN_PAGE = "/clubs/admin/"


def _staff(user) -> None:
    if not (user.is_authenticated and user.is_staff):
        raise ServiceError("Only an administrator may merge or remove clubs.", code="not_staff")


@transaction.atomic
def club_merge(*, keep: Club, merge: Club, user) -> dict[str, int]:
    """``merge`` is the same club as ``keep``: all of it moves to ``keep``; returns the counts
    moved."""
    _staff(user)
    if keep.pk == merge.pk:
        raise ServiceError("Choose two different clubs.", field="merge", code="same_club")
    keep, merge = (Club.objects.select_for_update().get(pk=c.pk) for c in (keep, merge))
    nights = list(Event.objects.filter(club=merge))
    moved = {
        "nights": Event.objects.filter(club=merge).update(club=keep),
        "members": Player.objects.filter(home_club=merge).update(home_club=keep),
        "awards": ClubAward.objects.filter(club=merge).update(club=keep),
        "night_cards": NightCard.objects.filter(club=merge).update(club=keep),
    }
    directors = ClubRole.objects.filter(club=keep).values("user_id")
    ClubRole.objects.filter(club=merge).exclude(user_id__in=directors).update(club=keep)
    ClubAuditEntry.objects.filter(club=merge).update(club=keep)
    club_audit_record(
        club=keep, actor=user, kind=ClubKind.SETTINGS, action="club_merge",
        summary=f"Club {merge.name} merged into this club: its nights, members, awards, "
        "directors and history are this club's",
        before={"club": merge.name, "club_id": merge.pk, "recognised": merge.recognised},
        after={"club": keep.name, "club_id": keep.pk, "recognised": keep.recognised, **moved},
    )  # fmt: skip
    if nights and merge.recognised != keep.recognised:
        ratings_recompute_request(user=user)
    for night in nights:
        night.club = keep
        night_cards_write(event=night)  # the kept club's season and rule
        audit_record(
            event=night, actor=user, kind=Kind.SETTINGS, action="club_merge",
            summary=f"Club {merge.name} merged into {keep.name}: this night is {keep.name}'s.",
            before={"club": merge.name, "club_id": merge.pk},
            after={"club": keep.name, "club_id": keep.pk},
        )  # fmt: skip
    merge.delete()
    return moved


def club_blockers(club: Club) -> list[str]:
    """What keeps ``club`` from being removed, in words ("2 club nights")."""
    counts = (
        (Event.objects.filter(club=club).count(), "night", "nights"),
        (Player.objects.filter(home_club=club).count(), "member", "members"),
        (ClubAward.objects.filter(club=club).count(), "award", "awards"),
    )
    return [f"{n} {one if n == 1 else many}" for n, one, many in counts if n]


@transaction.atomic
def club_remove(*, club: Club, user) -> None:
    """Remove a club nothing names (see the module)."""
    _staff(user)
    club = Club.objects.select_for_update().get(pk=club.pk)
    blockers = club_blockers(club)
    if blockers:
        raise ServiceError(
            f"{club.name} cannot be removed: it has {', '.join(blockers)}. Merge it into the "
            f"club it should be ({ADMIN_PAGE}) instead; the merge moves all of them.",
            code="club_in_use",
        )
    club.delete()
