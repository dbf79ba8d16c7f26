"""E-mailing Main players their new private link when they are entered in the Consolation.

- due: a Consolation entry (not withdrawn) with an e-mail address whose link has not been
  e-mailed yet (``Entry.link_emailed_at``). The address is the one the player gave the Main,
  copied onto the Consolation entry when it is made (``services.consolation``).

``consolation_links_request`` starts a job after commit (as ``table_emails`` does); the job calls
``consolation_links_send``, which records each message as soon as the mail server took it, so a
job run twice sends nothing twice.
"""

from __future__ import annotations

import contextlib
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.core import mail
from django.utils import timezone

from tournaments.models import ENTRANT_NAME, Entry, Event, Job
from tournaments.services.emails import entry_email
from tournaments.services.jobs import Progress, job_enqueue


def _due(event_id: int):
    return (
        Entry.objects.filter(event_id=event_id, link_emailed_at__isnull=True)
        .exclude(status=Entry.Status.WITHDRAWN)
        .exclude(email="")
    )


def consolation_links_request(*, consolation: Event, user=None) -> Job | None:
    """Start the job that e-mails the new links; None when nobody is due one."""
    if not _due(consolation.pk).exists():
        return None
    return job_enqueue(
        kind="consolation-links",
        key=f"event:{consolation.pk}",
        task="tournaments.tasks.send_consolation_links",
        created_by=user,
        event_id=consolation.pk,
    )


def consolation_links_send(*, event_id: int, progress: Progress) -> dict[str, Any]:
    """The job's work: e-mail every entry due its link; returns how many went and which failed."""
    consolation = Event.objects.select_related("parent").get(pk=event_id)
    due = list(_due(event_id).select_related("player").order_by(ENTRANT_NAME, "pk"))
    sent, failed = 0, []
    connection = mail.get_connection()
    try:
        for done, entry in enumerate(due):
            progress(10 + 90 * done // len(due), f"Sending {done + 1} of {len(due)} e-mails")
            try:
                connection.open()
                if not connection.send_messages([_email(consolation, entry)]):
                    raise RuntimeError("the mail backend sent nothing")
            except SoftTimeLimitExceeded:
                raise  # the job's time is up: what was sent is recorded, the rest waits
            except Exception as exc:  # smtplib and socket errors alike: this message only
                failed.append({"entry_id": entry.pk, "error": f"{exc.__class__.__name__}: {exc}"})
                with contextlib.suppress(Exception):
                    connection.close()
                continue
            sent += Entry.objects.filter(pk=entry.pk, link_emailed_at__isnull=True).update(
                link_emailed_at=timezone.now()
            )
    finally:
        with contextlib.suppress(Exception):
            connection.close()
    if failed and not sent:
        raise RuntimeError(f"None of the {len(failed)} e-mails could be sent: {failed[0]}")
    return {"sent": sent, "failed": failed}


def _email(consolation: Event, entry: Entry) -> mail.EmailMessage:
    context = {"event": consolation, "main": consolation.parent}
    return entry_email(entry=entry, template="consolation", context=context)
