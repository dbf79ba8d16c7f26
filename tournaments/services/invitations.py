"""Inviting someone by e-mail to hold a role, and their taking it (terms in
``models.invitations``).

A director of an event invites to that event's roles; a club director invites another club
director. The invited person opens the e-mailed link, signs up or signs in, and takes the role;
a director may withdraw an invitation that is still waiting. Each step is a row of the history
of the event (``services.audit``) or of the club (``services.club_history``) it invites to.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.core import mail
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from tournaments.errors import ServiceError
from tournaments.models import ClubRole, EventRole, Invitation
from tournaments.selectors.access import club_directs
from tournaments.selectors.people import person_name
from tournaments.services.audit import Kind, audit_record
from tournaments.services.club_history import ClubKind, club_audit_record

logger = logging.getLogger(__name__)


def invitation_place(invitation: Invitation) -> str:
    return invitation.event.name if invitation.event_id else invitation.club.name


def _check_email(email: str) -> str:
    email = (email or "").strip()
    try:
        validate_email(email)
    except ValidationError:
        raise ServiceError(
            f"{email!r} is not an e-mail address: write it as name@example.org.",
            field="email",
            code="invalid_email",
        ) from None
    return email


def _mail(invitation: Invitation) -> None:
    context = {
        "invitation": invitation,
        "place": invitation_place(invitation),
        "role": invitation.get_role_display().lower(),
        "sender": person_name(invitation.invited_by) if invitation.invited_by else "A director",
        "link": settings.SITE_URL + reverse("invitation", args=[invitation.token]),
    }
    subject = render_to_string("tournaments/email/invitation_subject.txt", context)
    message = mail.EmailMessage(
        subject=" ".join(subject.split()),
        body=render_to_string("tournaments/email/invitation_body.txt", context).strip() + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[invitation.email],
    )
    try:
        message.send()
    except Exception:  # the invitation stands; the director can send it again
        logger.exception("invitation %s: the e-mail could not be sent", invitation.pk)


@transaction.atomic
def invitation_send(*, actor, email: str, role: str, event=None, club=None) -> Invitation:
    """Invite ``email`` to hold ``role`` in ``event`` (or to direct ``club``); e-mailed once the
    invitation is saved. A second invitation while one waits for the same address and role is
    refused: withdraw the first to send another."""
    email = _check_email(email)
    if club is not None:
        role = Invitation.Role.CLUB_DIRECTOR
        if not club_directs(club=club, user=actor):
            raise ServiceError("Only the club's directors may do this.", code="not_director")
    elif role not in EventRole.Role.values:
        choices = ", ".join(EventRole.Role.values)
        raise ServiceError(
            f"Unknown role {role!r}; choose {choices}.", field="role", code="unknown_role"
        )
    waiting = Invitation.objects.filter(
        event=event,
        club=club,
        role=role,
        email__iexact=email,
        status=Invitation.Status.PENDING,
        expires_at__gt=timezone.now(),
    ).first()
    if waiting is not None:
        raise ServiceError(
            f"{email} was already invited as {waiting.get_role_display().lower()} on "
            f"{timezone.localtime(waiting.created_at):%-d %b %Y}: that invitation still works. "
            "Withdraw it first to send a new one.",
            field="email",
            code="already_invited",
        )
    invitation = Invitation.objects.create(
        event=event,
        club=club,
        role=role,
        email=email,
        invited_by=actor,
        expires_at=timezone.now() + timedelta(days=settings.INVITATION_DAYS),
    )
    label = invitation.get_role_display().lower()
    _record(
        invitation, actor, "invitation_send", f"{email} invited to be {label}",
        after={"email": email, "role": role, "status": invitation.status},
    )  # fmt: skip
    transaction.on_commit(lambda: _mail(invitation))
    return invitation


@transaction.atomic
def invitation_withdraw(*, actor, invitation: Invitation) -> Invitation:
    """Take back an invitation nobody took yet; its link then says it was withdrawn."""
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    if invitation.club_id and not club_directs(club=invitation.club, user=actor):
        raise ServiceError("Only the club's directors may do this.", code="not_director")
    if invitation.status == Invitation.Status.ACCEPTED:
        taker = person_name(invitation.accepted_by) if invitation.accepted_by else "someone"
        raise ServiceError(
            f"{taker} already took this invitation: remove their role in the list instead.",
            code="invitation_taken",
        )
    if invitation.status == Invitation.Status.WITHDRAWN:
        raise ServiceError("This invitation was already withdrawn.", code="invitation_withdrawn")
    invitation.status = Invitation.Status.WITHDRAWN
    invitation.decided_at = timezone.now()
    invitation.save(update_fields=["status", "decided_at"])
    _record(
        invitation, actor, "invitation_withdraw", f"Invitation of {invitation.email} withdrawn",
        before={"email": invitation.email, "role": invitation.role, "status": "pending"},
        after={"email": invitation.email, "role": invitation.role, "status": "withdrawn"},
    )  # fmt: skip
    return invitation


def _record(invitation: Invitation, actor, action: str, summary: str, **states) -> None:
    """One row in the history of the event or the club the invitation is to."""
    if invitation.club_id:
        club_audit_record(
            club=invitation.club, actor=actor, kind=ClubKind.ROLES, action=action,
            summary=summary, **states,
        )  # fmt: skip
    else:
        audit_record(
            event=invitation.event, actor=actor, kind=Kind.ROLES, action=action,
            summary=summary, **states,
        )  # fmt: skip


def invitation_refusal(invitation: Invitation, user=None) -> ServiceError | None:
    """Why ``invitation`` cannot be taken (by ``user``), with the way forward; None if it can."""
    sender = person_name(invitation.invited_by) if invitation.invited_by else "the director"
    if invitation.status == Invitation.Status.WITHDRAWN:
        when = timezone.localtime(invitation.decided_at)
        return ServiceError(
            f"This invitation was withdrawn on {when:%-d %b %Y}. If you should still hold the "
            f"role, ask {sender} to invite you again.",
            code="invitation_withdrawn",
        )
    if invitation.status == Invitation.Status.ACCEPTED:
        if user is not None and invitation.accepted_by_id == getattr(user, "pk", None):
            return ServiceError("You already took this invitation.", code="invitation_yours")
        return ServiceError(
            "This invitation was already taken by another account. If that was not you, ask "
            f"{sender} to invite you again.",
            code="invitation_taken",
        )
    if invitation.expires_at <= timezone.now():
        when = timezone.localtime(invitation.expires_at)
        return ServiceError(
            f"This invitation expired on {when:%-d %b %Y}. Ask {sender} to send a new one.",
            code="invitation_expired",
        )
    return None


@transaction.atomic
def invitation_accept(*, invitation: Invitation, user) -> Invitation:
    """``user`` (signed in) takes the role the invitation offers."""
    invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
    refusal = invitation_refusal(invitation, user)
    if refusal is not None:
        raise refusal
    if invitation.club_id:
        ClubRole.objects.get_or_create(club=invitation.club, user=user)
    else:
        EventRole.objects.get_or_create(event=invitation.event, user=user, role=invitation.role)
    invitation.status = Invitation.Status.ACCEPTED
    invitation.accepted_by = user
    invitation.decided_at = timezone.now()
    invitation.save(update_fields=["status", "accepted_by", "decided_at"])
    label = invitation.get_role_display().lower()
    _record(
        invitation, user, "invitation_accept",
        f"{person_name(user)} took the invitation to be {label}",
        before={"email": invitation.email, "role": invitation.role, "status": "pending"},
        after={"user": user.get_username(), "role": invitation.role, "held": True},
    )  # fmt: skip
    return invitation
