"""E-mails to a player about one entry: to the address they gave for that entry, with their
name as the event prints it and their private link on the site's address (``SITE_URL``).

``template`` names the pair ``templates/tournaments/email/<template>_subject.txt`` and
``<template>_body.txt``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core import mail
from django.template.loader import render_to_string
from django.urls import reverse

from tournaments.models import Entry


def entry_email(*, entry: Entry, template: str, context: dict[str, Any]) -> mail.EmailMessage:
    context = {
        **context,
        "name": entry.name,
        "link": settings.SITE_URL + reverse("player-page", args=[entry.report_token]),
    }
    subject = render_to_string(f"tournaments/email/{template}_subject.txt", context)
    return mail.EmailMessage(
        subject=" ".join(subject.split()),
        body=render_to_string(f"tournaments/email/{template}_body.txt", context).strip() + "\n",
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[entry.email],
    )
