"""Create the demo director account (and whatever demo data exists) for ``make run``."""

from django.core.management.base import BaseCommand

from tournaments.demo import demo_director, demo_events_build

DEMO_USERNAME = "director"
DEMO_PASSWORD = "pegboard-demo"


class Command(BaseCommand):
    help = "Create the demo director account and demo data. Safe to run again."

    def handle(self, *args, **options):
        user, created = demo_director()
        if created:
            user.is_staff = True
            user.is_superuser = True
            user.set_password(DEMO_PASSWORD)
            user.save()
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo director: user name '{DEMO_USERNAME}', password '{DEMO_PASSWORD}'"
                + ("" if created else " (account already existed; password unchanged)")
            )
        )
        for event in demo_events_build(director=user):
            self.stdout.write(f"Demo event: {event.name} ({event.get_stage_display()}).")
