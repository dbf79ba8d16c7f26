"""The answer to a sign-in while its user name is paused after too many wrong passwords.

django-axes counts the failures (see ``AXES_*`` in the settings) and calls ``locked_out``
instead of the login page's or the token endpoint's own answer: HTTP 429 with a plain message,
as JSON in the API's error shape under ``/api/``.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.shortcuts import render


def _minutes() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)


def locked_out(request, original_response=None, credentials=None) -> HttpResponse:
    message = (
        f"Too many wrong passwords for this user name. To keep the account safe, signing in "
        f"with it is paused for {_minutes()} minutes. Try again after that, or ask an "
        "administrator to lift the pause."
    )
    if request.path.startswith("/api/"):
        response = JsonResponse(
            {"errors": [{"field": None, "code": "locked_out", "message": message}]}, status=429
        )
    else:
        response = render(
            request,
            "registration/locked_out.html",
            {"message": message, "minutes": _minutes()},
            status=429,
        )
    response["Retry-After"] = str(int(settings.AXES_COOLOFF_TIME.total_seconds()))
    return response
