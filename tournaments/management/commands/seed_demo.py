"""Create the demo director account (and whatever demo data exists) for ``make run``."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

DEMO_USERNAME = "director"
DEMO_PASSWORD = "pegboard-demo"


class Command(BaseCommand):
    help = "Create the demo director account and demo data. Safe to run again."

    def handle(self, *args, **options):
        user, created = get_user_model().objects.get_or_create(
            username=DEMO_USERNAME, defaults={"email": "director@example.org"}
        )
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
