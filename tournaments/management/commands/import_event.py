"""``manage.py import_event FILE --user NAME``: restore an event from its backup; prints the
new event's id (see ``services.backup_import`` for what is found, made or refused)."""

import json

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tournaments.api.parsers import MAX_DEPTH, json_depth
from tournaments.errors import ServiceError
from tournaments.services.backup_import import event_import


class Command(BaseCommand):
    help = (
        "Restore an event from a file written by export_event, in one transaction; nothing is "
        "saved if it is refused. Prints the new event's id."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup (JSON); - reads standard input")
        parser.add_argument(
            "--user", required=True, help="user name of the person restoring it (in its history)"
        )

    def handle(self, *args, **options):
        user = get_user_model().objects.filter(username=options["user"]).first()
        if user is None:
            raise CommandError(f"No user named {options['user']!r}.")
        data = self._read(options["file"])
        try:
            event = event_import(data=data, user=user)
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(str(event.pk))

    def _read(self, path: str):
        """The file's JSON, or a CommandError saying why it is none: nested deeper than the
        API takes (Python's decoder would stop with a RecursionError), a number too long to
        read, NaN or Infinity (not JSON)."""
        try:
            if path == "-":
                text = self.stdin.read()
            else:
                with open(path, encoding="utf-8") as source:
                    text = source.read()
        except OSError as exc:
            raise CommandError(f"Cannot read {path}: {exc.strerror}.") from None
        except UnicodeDecodeError as exc:
            raise CommandError(f"{path} is not UTF-8 text: {exc}.") from None
        depth = json_depth(text)
        if depth > MAX_DEPTH:
            raise CommandError(f"{path} is nested {depth} deep; a backup is at most {MAX_DEPTH}.")
        try:
            return json.loads(text, parse_constant=_not_json)
        except ValueError as exc:  # JSONDecodeError, a number of over 4,300 digits, NaN
            raise CommandError(f"{path} is not JSON: {exc}.") from None


def _not_json(name: str):
    raise ValueError(f"{name} is not a JSON number")
