"""Error pages that need a view: the refusal of a form whose CSRF check failed, and the 429 of
an address that tried too many private links.

Django's own CSRF page styles itself inline, which the Content-Security-Policy blocks; this one
is the site's layout (templates/403_csrf.html) and tells a player what to do. The 404, 403 and
500 pages are templates only (templates/404.html, 403.html, 500.html). Django has no 429 page:
``too_many_requests_page`` is what ``tournaments.throttles`` answers (templates/429.html).
"""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import render
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


def too_many_requests_page(request, *, wait: int):
    """429: this address tried too many private links that do not exist; wait ``wait`` s."""
    return render(request, "429.html", {"wait": wait}, status=429)
