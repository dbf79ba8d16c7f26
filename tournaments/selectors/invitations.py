"""Reading invitations: one by its link, and the ones still waiting for an event or a club."""

from __future__ import annotations

from tournaments.models import Invitation


def invitation_by_token(*, token: str) -> Invitation | None:
    return (
        Invitation.objects.select_related("event", "club", "invited_by", "accepted_by")
        .filter(token=token)
        .first()
    )


def invitations_waiting(*, event=None, club=None) -> list[Invitation]:
    """Invitations nobody took or withdrew yet, newest first (expired ones say so)."""
    found = Invitation.objects.filter(status=Invitation.Status.PENDING)
    found = found.filter(event=event) if event is not None else found.filter(club=club)
    return list(found.select_related("invited_by"))
