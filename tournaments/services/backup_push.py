"""Sending an event run here (a venue laptop, ``make venue``) to the main site through its API
(``manage.py push_event``), and the line each try leaves in the event's history here.

Terms:

- push: the event's backup (``backup_export.event_export``, with the players' private links only
  when asked) posted to the main site's ``POST /api/v1/events/import/`` with an API token of the
  director's account there; the main site restores it (``backup_import``). Nothing here changes
  but the history.
- answer: what the main site said, in the director's words: taken (and the event's id there),
  refused (its sentence and the way on), or not reached. The same words are printed by the
  command and kept in the history, so the director sees when, to which site, and the answer.
  The token is never written down: it is as good as the director's password there.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass

from tournaments.models import Event
from tournaments.services.audit import Kind, audit_record
from tournaments.services.backup_export import event_export

IMPORT_PATH = "/api/v1/events/import/"
TIMEOUT_SECONDS = 120


@dataclass(frozen=True)
class PushAnswer:
    """The main site's answer: ``status`` None when it was not reached."""

    status: int | None
    sent: bool
    event_there: int | None
    words: str


def _errors(body: bytes) -> tuple[str, str]:
    """The first error's code, and every error's message, from the API's error shape."""
    try:
        errors = json.loads(body)["errors"]
        return errors[0].get("code") or "", " ".join(e["message"] for e in errors)
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return "", body[:300].decode("utf-8", "replace")


def _post(site: str, token: str, document: dict) -> tuple[int | None, bytes, str]:
    request = urllib.request.Request(
        site + IMPORT_PATH,
        data=json.dumps(document).encode(),
        method="POST",
        headers={
            "Authorization": f"Token {token}",
            "Content-Type": "application/json",
            "Accept": "application/json",
        },
    )
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as answer:
            return answer.status, answer.read(), ""
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read(), ""
    except (urllib.error.URLError, TimeoutError, OSError) as exc:
        return None, b"", str(getattr(exc, "reason", exc))


def _answer(site: str, name: str, status: int | None, body: bytes, reason: str) -> PushAnswer:
    if status is None:
        return PushAnswer(None, False, None, (
            f"Cannot reach {site}: {reason}. Check this laptop is on the internet (not only the "
            "venue's router) and the address, then send again: nothing was sent."
        ))  # fmt: skip
    if status == 201:
        there = json.loads(body)["id"]
        return PushAnswer(status, True, there, (
            f"Sent {name!r}: on the main site it is event {there}, {site}/events/{there}/manage/"
        ))  # fmt: skip
    code, message = _errors(body)
    if status == 409 and code == "duplicate":
        words = f"The main site already holds this event. {message}"
    elif code == "links_in_use":
        words = (
            f"The main site already holds these players' private links: {message} To send "
            "it anyway, run push_event without --with-links: the main site gives new links."
        )
    elif status == 401:
        words = (
            f"The main site refused the token: {message} Make a new one (POST your user name "
            f"and password to {site}/api/v1/auth/token/) and send again."
        )
    else:
        words = f"The main site refused the event ({status}): {message}"
    return PushAnswer(status, False, None, words)


def event_push(
    *, event: Event, site: str, token: str, include_tokens: bool = False, user=None
) -> PushAnswer:
    """Send ``event`` to the main site at ``site`` (checked by the caller: https, or http to
    this computer) with ``token``; every try, taken, refused or not reached, is one line of the
    event's history here with the site and the answer."""
    document = event_export(event=event, include_tokens=include_tokens)
    answer = _answer(site, event.name, *_post(site, token, document))
    links = " with the players' private links" if include_tokens else " (no private links)"
    outcome = "taken" if answer.sent else ("not reached" if answer.status is None else "refused")
    audit_record(
        event=event,
        actor=user,
        kind=Kind.LINKS if include_tokens else Kind.SETTINGS,
        action="event_push",
        summary=f"Sent to the main site {site}{links}: {outcome}. {answer.words}",
        after={
            "site": site,
            "include_tokens": include_tokens,
            "status": answer.status,
            "sent": answer.sent,
            "event_there": answer.event_there,
            "answer": answer.words,
        },
    )
    return answer
