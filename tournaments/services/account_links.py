"""Linking a sign-in account to a player record, only when the player (or an administrator)
says so.

A private link lets whoever holds it use that one entry while the link is current; it is not
proof of who someone is (a director, an opponent or a judge may hold it). So:

- ask: a signed-in person who holds a player's current link asks to link their account to that
  player. If the player's record has an e-mail address, a code goes there (by a job); typing
  it within ``CODE_MINUTES`` links the account. With no address on the record, the request
  waits for an administrator, who confirms it knowing the person.
- limits: ``MAX_WRONG`` wrong codes cancel a request; one account asks at most
  ``MAX_ASKED_A_DAY`` times in 24 hours, so a code cannot be guessed by asking again and again;
  and one player's address gets at most ``MAX_CODES_TO_PLAYER_A_DAY`` codes in 24 hours, however
  many accounts ask (sign-up is open): past that a request waits for an administrator, so a
  mailbox cannot be flooded and the guesses at one player's codes stay few.
- end: an administrator unlinks a wrong link, saying why; a person may unlink their own
  account. The rows stay: the history shows who was linked, how, and who ended it.

``Player.user`` always equals the one confirmed ``AccountLink`` of the player (or None).
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.core import mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from tournaments.errors import ServiceError
from tournaments.models import AccountLink, Entry, Player
from tournaments.selectors.account_links import mask_address
from tournaments.services.jobs import job_enqueue

CODE_MINUTES = 30
MAX_WRONG = 5
MAX_ASKED_A_DAY = 3
MAX_CODES_TO_PLAYER_A_DAY = 3
CODE_DIGITS = 6
_SALT = "pegboard.account-link-code"

Status, Method = AccountLink.Status, AccountLink.Method


def _hash(link: AccountLink, code: str) -> str:
    return salted_hmac(_SALT, f"{link.pk}:{code}").hexdigest()


def _is_admin(user) -> bool:
    return user.is_authenticated and user.is_staff


def _refuse_if_linked(player: Player, user) -> None:
    mine = Player.objects.filter(user=user).first()
    if mine is not None and mine.pk == player.pk:
        raise ServiceError(
            f"The account {user.get_username()} is already linked to {player.name}.",
            code="linked",
        )
    if mine is not None:
        raise ServiceError(
            f"The account {user.get_username()} is linked to {mine.name}, and one account is "
            "one player: unlink it first (on “My games”) if that is wrong.",
            code="account_linked",
        )
    if player.user_id is not None:
        raise ServiceError(
            f"{player.name}'s record is linked to another account. If that is wrong, ask an "
            "administrator to unlink it.",
            code="player_linked",
        )


@transaction.atomic
def account_link_request(*, entry: Entry, user) -> AccountLink:
    """The holder of ``entry``'s current link asks to link ``user`` to the entry's player.
    Asking again while a request waits returns that request."""
    if not user.is_authenticated:
        raise ServiceError("Sign in first.", code="not_signed_in")
    player = Player.objects.select_for_update().get(pk=entry.player_id)
    _refuse_if_linked(player, user)
    waiting = AccountLink.objects.filter(player=player, user=user, status=Status.PENDING).first()
    if waiting is not None and not _expired(waiting):
        if waiting.method == Method.EMAIL_CODE and waiting.code_sent_at is None:
            _send_code_later(waiting)  # the last try did not go out (the mail server refused)
        return waiting
    if waiting is not None:
        _cancel(waiting, "The code expired.")
    day_ago = timezone.now() - timedelta(hours=24)
    if AccountLink.objects.filter(user=user, created_at__gte=day_ago).count() >= MAX_ASKED_A_DAY:
        raise ServiceError(
            f"You asked {MAX_ASKED_A_DAY} times today. Try again tomorrow, or ask an "
            "administrator to link your account.",
            code="too_many_requests",
        )
    if player.email and _codes_to_player_today(player) < MAX_CODES_TO_PLAYER_A_DAY:
        link = AccountLink.objects.create(
            player=player,
            user=user,
            method=Method.EMAIL_CODE,
            sent_to=mask_address(player.email),
            expires_at=timezone.now() + timedelta(minutes=CODE_MINUTES),
        )
        _send_code_later(link)
    else:
        link = AccountLink.objects.create(player=player, user=user, method=Method.ADMINISTRATOR)
    return link


def _codes_to_player_today(player: Player) -> int:
    """Codes e-mailed to the player's address in the last 24 hours, whoever asked: sign-up is
    open, so the asking accounts are no limit on their own (the player row is locked)."""
    day_ago = timezone.now() - timedelta(hours=24)
    return AccountLink.objects.filter(
        player=player, method=Method.EMAIL_CODE, created_at__gte=day_ago
    ).count()


def _send_code_later(link: AccountLink) -> None:
    job_enqueue(
        kind="account_link_code",
        key=f"link:{link.pk}",
        task="tournaments.tasks.send_account_link_code",
        created_by=link.user,
        link_id=link.pk,
    )


def account_link_code_send(*, link_id: int) -> dict:
    """The job's work: make the code, keep only its hash, and e-mail it to the address on the
    player's record. Running it again once the code went out sends nothing more."""
    with transaction.atomic():
        link = AccountLink.objects.select_for_update().select_related("player").get(pk=link_id)
        if link.status != Status.PENDING or link.code_sent_at is not None or _expired(link):
            return {"sent": 0}
        code = f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"
        link.code_hash = _hash(link, code)
        link.code_sent_at = timezone.now()
        link.save(update_fields=["code_hash", "code_sent_at"])
        message = _code_email(link, code)
        # Sent inside the transaction: if the server refuses it, no code is on record either,
        # and the job's retry makes a fresh one.
        message.send()
    return {"sent": 1}


def _code_email(link: AccountLink, code: str) -> mail.EmailMessage:
    context = {
        "name": link.player.name,
        "code": code,
        "minutes": CODE_MINUTES,
        "username": link.user.get_username(),
        "site": settings.SITE_URL,
    }
    return mail.EmailMessage(
        subject=f"Your Pegboard code: {code}",
        body=render_to_string("tournaments/email/account_link_code.txt", context).strip() + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[link.player.email],
    )


def _expired(link: AccountLink) -> bool:
    return link.expires_at is not None and link.expires_at <= timezone.now()


def _cancel(link: AccountLink, note: str, by=None) -> None:
    link.status, link.note = Status.CANCELLED, note[:300]
    link.decided_at, link.decided_by = timezone.now(), by
    link.save(update_fields=["status", "note", "decided_at", "decided_by"])


def _locked(link: AccountLink) -> AccountLink:
    return AccountLink.objects.select_for_update().select_related("player", "user").get(pk=link.pk)


def _pending(link: AccountLink) -> AccountLink:
    link = _locked(link)
    if link.status != Status.PENDING:
        raise ServiceError(
            f"This request is no longer waiting: {link.get_status_display().lower()}.",
            code="not_pending",
        )
    return link


def account_link_confirm(*, link: AccountLink, user, code: str) -> AccountLink:
    """The person types the code sent to the player's address: their account is linked. A
    wrong code is counted (and kept counted: the refusal comes after the count is saved)."""
    link, left = _try_code(link, user, code)
    if left is not None:
        raise ServiceError(
            f"That is not the code we sent. {left} tr{'ies' if left > 1 else 'y'} left.",
            field="code",
            code="wrong_code",
        )
    return link


@transaction.atomic
def _try_code(link: AccountLink, user, code: str) -> tuple[AccountLink, int | None]:
    """The request after the code: linked, cancelled (expired, or too many wrong codes), or
    still waiting with the number of tries left."""
    link = _pending(link)
    if link.user_id != user.pk:
        raise ServiceError("Only the person who asked types the code.", code="not_yours")
    if link.method != Method.EMAIL_CODE:
        raise ServiceError("This request waits for an administrator.", code="no_code")
    if _expired(link):
        _cancel(link, "The code expired.")
        return link, None
    given = "".join(ch for ch in code if ch.isdigit())
    if link.code_hash and constant_time_compare(link.code_hash, _hash(link, given)):
        return _link(link, by=user), None
    link.wrong_codes += 1
    link.save(update_fields=["wrong_codes"])
    left = MAX_WRONG - link.wrong_codes
    if left <= 0:
        _cancel(link, f"{MAX_WRONG} wrong codes.")
        return link, None
    return link, left


def _link(link: AccountLink, *, by) -> AccountLink:
    """Confirm ``link``: the account becomes the player's; others' requests for them end."""
    player = Player.objects.select_for_update().get(pk=link.player_id)
    _refuse_if_linked(player, link.user)
    now = timezone.now()
    link.status, link.decided_at, link.decided_by = Status.CONFIRMED, now, by
    try:
        with transaction.atomic():
            link.save(update_fields=["status", "decided_at", "decided_by"])
            player.user = link.user
            player.save(update_fields=["user"])
    except IntegrityError:
        raise ServiceError(
            "This account or this player was linked a moment ago.", code="linked"
        ) from None
    for other in AccountLink.objects.filter(player=player, status=Status.PENDING):
        _cancel(other, f"{player.name} linked another account.")
    for other in AccountLink.objects.filter(user=link.user, status=Status.PENDING):
        _cancel(other, "This account was linked to another player.")
    return link


@transaction.atomic
def account_link_approve(*, link: AccountLink, user) -> AccountLink:
    """An administrator confirms a waiting request, knowing the person."""
    if not _is_admin(user):
        raise ServiceError("Only an administrator may confirm a link.", code="not_staff")
    return _link(_pending(link), by=user)


@transaction.atomic
def account_link_create(*, player: Player, account, user) -> AccountLink:
    """An administrator links ``account`` to ``player`` at once, knowing the person (nobody
    asked on the site, e.g. a player who gave no e-mail address and asked at the desk)."""
    if not _is_admin(user):
        raise ServiceError("Only an administrator may link an account.", code="not_staff")
    player = Player.objects.select_for_update().get(pk=player.pk)
    _refuse_if_linked(player, account)
    link = AccountLink.objects.filter(player=player, user=account, status=Status.PENDING).first()
    if link is None:  # a request of theirs waiting is the one confirmed
        link = AccountLink.objects.create(player=player, user=account, method=Method.ADMINISTRATOR)
    return _link(link, by=user)


@transaction.atomic
def account_link_decline(*, link: AccountLink, user, note: str) -> AccountLink:
    """An administrator turns a waiting request down, saying why (the person sees it)."""
    if not _is_admin(user):
        raise ServiceError("Only an administrator may decline a link.", code="not_staff")
    if not note.strip():
        raise ServiceError("Say why, for the person who asked.", field="note", code="required")
    link = _pending(link)
    _cancel(link, note.strip(), by=user)
    return link


@transaction.atomic
def account_link_cancel(*, link: AccountLink, user) -> AccountLink:
    """The person who asked withdraws their waiting request."""
    link = _pending(link)
    if link.user_id != user.pk:
        raise ServiceError("Only the person who asked may withdraw this.", code="not_yours")
    _cancel(link, "Withdrawn by the person who asked.", by=user)
    return link


@transaction.atomic
def account_link_end(*, link: AccountLink, user, note: str = "") -> AccountLink:
    """Unlink: an administrator (a wrong link, saying why) or the linked person themselves.
    The account no longer lists the player's events; the row stays in the history."""
    link = _locked(link)
    if link.status != Status.CONFIRMED:
        raise ServiceError("This account is not linked to the player.", code="not_linked")
    own = link.user_id == user.pk
    if not (own or _is_admin(user)):
        raise ServiceError("Only an administrator may unlink someone else.", code="not_staff")
    if not own and not note.strip():
        raise ServiceError("Say why the link is wrong.", field="note", code="required")
    Player.objects.filter(pk=link.player_id, user=link.user).update(user=None)
    link.status, link.ended_at, link.ended_by = Status.ENDED, timezone.now(), user
    link.note = (note.strip() or "Unlinked by the person themselves.")[:300]
    link.save(update_fields=["status", "ended_at", "ended_by", "note"])
    return link
