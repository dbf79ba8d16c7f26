"""Token sign-in for the API that ends: a token is refused ``API_TOKEN_HOURS`` after it was
issued, and as soon as it is revoked (see ``tournaments.services.api_tokens``).

``ExpiringTokenAuthentication`` is DRF's ``TokenAuthentication`` with the expiry checked and
refusals that say what to do: every one is a 401 with ``WWW-Authenticate: Token`` and a code
(``token_expired``, ``token_invalid``) naming why. ``revoke_on_lockout`` is django-axes'
``user_locked_out`` receiver (connected in ``TournamentsConfig.ready``).
"""

from __future__ import annotations

import re

from django.conf import settings
from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from tournaments.services.api_tokens import (
    api_token_expired,
    api_tokens_revoke_for_username,
)

TOKEN_URL = "/api/v1/auth/token/"
# DRF's keys are 40 hexadecimal digits; anything else is refused without a query (a NUL byte
# would otherwise reach PostgreSQL, which refuses it with an error).
_KEY = re.compile(r"[0-9A-Za-z]{1,40}")


class ExpiringTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key):
        token = None
        if _KEY.fullmatch(key):
            token = self.get_model().objects.select_related("user").filter(key=key).first()
        if token is None or not token.user.is_active:
            raise AuthenticationFailed(
                "This token is not valid: it was revoked, replaced or never issued. Ask for a "
                f"new one: POST your username and password to {TOKEN_URL}.",
                code="token_invalid",
            )
        if api_token_expired(token=token):
            raise AuthenticationFailed(
                f"This token expired: tokens last {settings.API_TOKEN_HOURS} hours. Ask for a "
                f"new one: POST your username and password to {TOKEN_URL}.",
                code="token_expired",
            )
        return token.user, token


def revoke_on_lockout(sender, request=None, username=None, **kwargs) -> None:
    """A user name paused for wrong passwords loses its API token too."""
    api_tokens_revoke_for_username(username=username)
