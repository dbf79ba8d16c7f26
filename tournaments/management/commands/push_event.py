"""``manage.py push_event EVENT_ID --to https://main.site --token TOKEN``: send an event run here
(a venue laptop, ``make venue``) to the main site through its API.

The event's backup (``services.backup_export``, without the players' private links unless
``--with-links``) is posted to the main site's ``POST /api/v1/events/import/``, which restores it
there (``services.backup_import``) with the token's account as a director. Nothing here changes.
The main site refuses an event it already holds (same name and date): this command says so and
how to go on, and nothing is sent twice.
"""

from __future__ import annotations

import ipaddress
import json
import urllib.error
import urllib.request
from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Event
from tournaments.services.backup_export import event_export

IMPORT_PATH = "/api/v1/events/import/"
TIMEOUT_SECONDS = 120


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _errors(body: bytes) -> tuple[str, str]:
    """The first error's code, and every error's message, from the API's error shape."""
    try:
        errors = json.loads(body)["errors"]
        return errors[0].get("code") or "", " ".join(e["message"] for e in errors)
    except (ValueError, KeyError, IndexError, TypeError, AttributeError):
        return "", body[:300].decode("utf-8", "replace")


class Command(BaseCommand):
    help = (
        "Send an event to the main site through its API (its backup, imported there). Refused "
        "by the main site when it already holds that event."
    )

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int, help="the event's id here")
        parser.add_argument("--to", required=True, help="the main site, e.g. https://pegboard.org")
        parser.add_argument(
            "--token",
            required=True,
            help="an API token of your account on the main site (POST your user name and "
            "password to <main site>/api/v1/auth/token/)",
        )
        parser.add_argument(
            "--with-links",
            action="store_true",
            help="keep the players' private links (default: the main site gives new ones)",
        )

    def handle(self, *args, **options):
        event = Event.objects.filter(pk=options["event_id"]).first()
        if event is None:
            raise CommandError(f"No event {options['event_id']} here; the events page lists them.")
        site = self._site(options["to"])
        document = event_export(event=event, include_tokens=options["with_links"])
        status, body = self._post(site, options["token"], document)
        if status == 201:
            sent = json.loads(body)
            self.stdout.write(
                f"Sent {event.name!r}: on the main site it is event {sent['id']}, "
                f"{site}/events/{sent['id']}/manage/"
            )
            return
        code, message = _errors(body)
        if status == 409 and code == "duplicate":
            raise CommandError(f"The main site already holds this event. {message}")
        if status == 401:
            raise CommandError(
                f"The main site refused the token: {message} Make a new one (POST your user "
                f"name and password to {site}/api/v1/auth/token/) and run this again."
            )
        raise CommandError(f"The main site refused the event ({status}): {message}")

    def _site(self, to: str) -> str:
        parts = urlsplit(to.strip())
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise CommandError(f"--to {to!r} is not a site's address: write https://main.site.")
        if parts.scheme == "http" and not _loopback(parts.hostname):
            raise CommandError(
                f"--to {to!r} is plain HTTP: the token would cross the internet readable. "
                "Write the main site's https:// address."
            )
        return f"{parts.scheme}://{parts.netloc}"

    def _post(self, site: str, token: str, document: dict) -> tuple[int, bytes]:
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
                return answer.status, answer.read()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read()
        except (urllib.error.URLError, TimeoutError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise CommandError(
                f"Cannot reach {site}: {reason}. Check this laptop is on the internet (not only "
                "the venue's router) and the address, then run this again: nothing was sent."
            ) from None
