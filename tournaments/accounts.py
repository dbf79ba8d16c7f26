"""Accounts people make themselves: django-allauth's sign-up, e-mail confirmation and password
reset, around Django's own sign-in page.

- confirmed: an account made by sign-up has an e-mail address (allauth's ``EmailAddress``) that
  must be confirmed by the e-mailed link before it signs in. Accounts staff made in the admin
  have no such row and sign in as before.
- ``SignInForm``: the login page's form (Django's ``LoginView``, so django-axes still counts
  wrong passwords); it refuses an account whose address is not confirmed yet, says so, and
  sends the link again (at most once in three minutes per address). A password reset by the
  e-mailed link confirms the address too.
- ``AccountAdapter``: allauth's hooks. An account that signs in after confirming its address is
  signed in with Django's model backend (the first backend, axes', keeps no session); allauth's
  limits count the client address as the site's other limits do.
"""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.core.cache import cache
from django.urls import reverse

from tournaments.throttles import client_address

MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"
RESEND_SECONDS = 180


class AccountAdapter(DefaultAccountAdapter):
    def get_client_ip(self, request) -> str:
        """The address allauth's limits count (sign-up, password reset): the same as every other
        limit's (``throttles.client_address``: behind ``NUM_PROXIES`` proxies, the address the
        nearest one saw). allauth's own rule ignores NUM_PROXIES and, behind the proxy, would
        count every visitor as the proxy's one address."""
        return client_address(request)

    def login(self, request, user) -> None:
        if not hasattr(user, "backend"):
            user.backend = MODEL_BACKEND
        super().login(request, user)


def address_proved_by_reset(sender, request, user, **kwargs) -> None:
    """A password reset was done from a link e-mailed to the account's address: that proves the
    address as well as its confirmation link would (connected in ``apps.ready``)."""
    EmailAddress.objects.filter(user=user, email__iexact=user.email).update(verified=True)


def address_waiting(user) -> EmailAddress | None:
    """The address a signed-up account must still confirm; None when it may sign in."""
    addresses = list(EmailAddress.objects.filter(user=user))
    if not addresses or any(a.verified for a in addresses):
        return None
    return next((a for a in addresses if a.primary), addresses[0])


class SignInForm(AuthenticationForm):
    def confirm_login_allowed(self, user) -> None:
        super().confirm_login_allowed(user)
        address = address_waiting(user)
        if address is None:
            return
        if cache.add(f"confirm-resend:{address.email.lower()}", 1, RESEND_SECONDS):
            address.send_confirmation(self.request)
        signup = reverse("account_signup")
        raise forms.ValidationError(
            f"Confirm your e-mail address first: open the link we sent to {address.email} "
            f"(we have sent it again; look in your spam folder too). Wrong address? Make the "
            f"account again at {signup} with the right one.",
            code="email_not_confirmed",
        )
