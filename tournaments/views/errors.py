"""Error pages that need a view: the refusal of a form whose CSRF check failed, and the 429 of
an address that tried too many private links, sent too many registration requests, or reached
allauth's limits on sign-up and password reset.

Django's own CSRF page styles itself inline, which the Content-Security-Policy blocks; this one
is the site's layout (templates/403_csrf.html) and tells a player what to do. The 404, 403 and
500 pages are templates only (templates/404.html, 403.html, 500.html). Django has no 429 page:
``too_many_requests_page`` is what ``tournaments.throttles`` answers (templates/429.html).
"""

from __future__ import annotations

import math

from django.conf import settings
from django.shortcuts import render
from django.template.defaultfilters import pluralize
from django.utils.http import url_has_allowed_host_and_scheme


def csrf_failure(request, reason: str = ""):
    """403: the form's safety token was missing or stale (open too long, or no cookies).

    ``back`` is the page the form was on (its Referer) when that is on this site, so reloading
    it gives the player a fresh form; ``reason`` is Django's diagnosis, shown only in DEBUG."""
    referer = request.headers.get("referer", "")
    back = (
        referer
        if url_has_allowed_host_and_scheme(
            referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
        )
        else ""
    )
    context = {"back": back, "reason": reason if settings.DEBUG else ""}
    return render(request, "403_csrf.html", context, status=403)


# allauth's limited actions by the page that asks them (``ACCOUNT_RATE_LIMITS`` keys).
ACCOUNT_ACTIONS = {
    "account_signup": "signup",
    "account_reset_password": "reset_password",
    "account_reset_password_from_key": "reset_password_from_key",
    "account_confirm_email": "confirm_email",
}
PERIOD_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def accounts_too_many(request):
    """429 of allauth's limits (``config.urls.handler429``): the site's page. allauth does not
    say when its window frees a place, so the wait named is the longest it can be: the period
    of the page's limit (``20/h/ip``: an hour)."""
    match = getattr(request, "resolver_match", None)
    action = ACCOUNT_ACTIONS.get(match.url_name if match else "", "signup")
    rates = (settings.ACCOUNT_RATE_LIMITS or {}).get(action) or "1/h/ip"
    wait = max(_period(rate) for rate in rates.split(","))
    response = too_many_requests_page(request, wait=wait, reason="accounts")
    response["Retry-After"] = str(wait)
    return response


def _period(rate: str) -> int:
    period = rate.strip().split("/")[1]  # amount/period/per, the period e.g. "h" or "3m"
    return int(period[:-1] or 1) * PERIOD_SECONDS[period[-1]]


def too_many_requests_page(request, *, wait: int, reason: str = "links"):
    """429: this address tried too many private links that do not exist (``reason`` "links"),
    sent too many registration requests ("writes"), or too many sign-ups or password resets
    ("accounts"); it waits ``wait`` s."""
    minutes = math.ceil(wait / 60)
    after = (
        f"{wait} second{pluralize(wait)}" if wait < 120 else f"{minutes} minute{pluralize(minutes)}"
    )
    if reason == "accounts":
        after = f"up to {after}"
    context = {"wait": wait, "after": after, "reason": reason}
    return render(request, "429.html", context, status=429)
