"""``manage.py push_event EVENT_ID --to https://main.site --token TOKEN``: send an event run here
(a venue laptop, ``make venue``) to the main site through its API.

The event's backup (without the players' private links unless ``--with-links``) is posted to the
main site's ``POST /api/v1/events/import/``, which restores it there with the token's account as
a director (``services.backup_push``). Nothing here changes but the event's history, which keeps
each try: when, to which site, and the answer. The main site refuses an event it already holds
(same name and date, or the same private links): this command says so and how to go on, and
nothing is sent twice.
"""

from __future__ import annotations

import ipaddress
from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Event
from tournaments.services.backup_push import event_push


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Command(BaseCommand):
    help = (
        "Send an event to the main site through its API (its backup, imported there). Refused "
        "by the main site when it already holds that event. Each try is in the event's history."
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
        answer = event_push(
            event=event, site=site, token=options["token"], include_tokens=options["with_links"]
        )
        if not answer.sent:
            raise CommandError(answer.words)
        self.stdout.write(answer.words)

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
