"""``manage.py export_event <event id>``: one event's backup as JSON (see ``services.backup``)."""

import json

from django.core.management.base import BaseCommand, CommandError

from tournaments.models import Event
from tournaments.services.backup_export import event_export


class Command(BaseCommand):
    help = (
        "Write one event's backup (everything of the event, no passwords) as JSON, to standard "
        "output or a file. Restore it with import_event."
    )

    def add_arguments(self, parser):
        parser.add_argument("event_id", type=int, help="the event's id")
        parser.add_argument(
            "--tokens",
            action="store_true",
            help="include the players' private links, so printed scorecards keep working "
            "(keep such a file as safe as the links themselves)",
        )
        parser.add_argument("--output", "-o", help="write to this file instead of stdout")

    def handle(self, *args, **options):
        event = Event.objects.filter(pk=options["event_id"]).first()
        if event is None:
            raise CommandError(f"No event with id {options['event_id']}.")
        text = json.dumps(event_export(event=event, include_tokens=options["tokens"]), indent=1)
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as out:
                out.write(text + "\n")
            self.stderr.write(f"{event.name}: written to {options['output']}.")
        else:
            self.stdout.write(text)
