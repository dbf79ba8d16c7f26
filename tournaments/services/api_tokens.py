"""API tokens (DRF's ``authtoken``): one per user, good for ``API_TOKEN_HOURS`` after it was
issued.

- issue: ``POST /api/v1/auth/token/`` answers the user's token while it is good, and a new one
  once it expired (the old key is deleted).
- expired: issued ``API_TOKEN_HOURS`` ago or more; ``tournaments.api.authentication`` then
  refuses it with 401, saying to ask for a new one.
- revoke: the token is deleted, so it stops working at once: ``DELETE /api/v1/auth/token/``
  for the caller's own, and a pause for wrong passwords (django-axes) for the paused user
  name's, so a token taken while a password was being guessed does not outlive the pause.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from rest_framework.authtoken.models import Token


def _lifetime() -> timedelta:
    return timedelta(hours=settings.API_TOKEN_HOURS)


def api_token_expires_at(*, token: Token) -> datetime:
    return token.created + _lifetime()


def api_token_expired(*, token: Token) -> bool:
    return timezone.now() >= api_token_expires_at(token=token)


@transaction.atomic
def api_token_issue(*, user) -> Token:
    """The user's token while it is good; an expired one is replaced by a new key."""
    Token.objects.filter(user=user, created__lte=timezone.now() - _lifetime()).delete()
    token, _ = Token.objects.get_or_create(user=user)
    return token


def api_token_revoke(*, user) -> bool:
    """End the user's token; False when they had none."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)


def api_tokens_revoke_for_username(*, username: str | None) -> int:
    """End the token of the account with this user name (a pause for wrong passwords)."""
    if not username:
        return 0
    deleted, _ = Token.objects.filter(user__username=username).delete()
    return deleted
