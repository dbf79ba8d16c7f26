"""E-mails to a player about their registration request: to the address on the request, with
the link to its private page. Sent once the step is saved; a request without an e-mail address
gets none (the player follows it on the page, or the director phones)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core import mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse

logger = logging.getLogger(__name__)


def _send(message: mail.EmailMessage, request_id: int) -> None:
    try:
        message.send()
    except Exception:  # the step stands; the player's page says the same
        logger.exception("registration request %s: the e-mail could not be sent", request_id)


def request_email(*, request, template: str, event=None) -> None:
    """E-mail ``templates/tournaments/email/<template>_subject.txt``/``_body.txt``."""
    if not request.email:
        return
    context = {
        "request": request,
        "weekend": request.weekend,
        "event": event,
        "link": settings.SITE_URL + reverse("registration-status", args=[request.token]),
        "offer_hours": settings.WAITLIST_OFFER_HOURS,
    }
    subject = render_to_string(f"tournaments/email/{template}_subject.txt", context)
    message = mail.EmailMessage(
        subject=" ".join(subject.split()),
        body=render_to_string(f"tournaments/email/{template}_body.txt", context).strip() + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[request.email],
    )
    transaction.on_commit(lambda: _send(message, request.pk))
