"""Demo data for ``make run``: a finished, finalised weekend Main (12 games, sanctioned by the
demo director as the demo's administrator, so it earns Master Rating Points), and a Grass Roots
club (recognised by the same ACC office, so its nights are rated and in the national table)
with two finished club nights and one in progress, all played through the real services
by the engine's simulator (see ``services.simulation``)."""

from __future__ import annotations

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.utils import timezone

from tournaments.models import Club, Event
from tournaments.services.club_recognition import club_recognition_grant, club_recognition_request
from tournaments.services.clubs import club_create
from tournaments.services.ledger import event_finalise_request
from tournaments.services.sanctioning import event_sanction_grant, event_sanction_request
from tournaments.services.simulation import event_simulate

FINISHED = "Demo Weekend: Main (finished)"
IN_PROGRESS = "Demo Club Night (in progress)"
CLUB = "Demo Grass Roots Club"


def demo_director():
    """The demo's director, who is also its administrator (and so its ACC office)."""
    return get_user_model().objects.get_or_create(
        username="director",
        defaults={"email": "director@example.org", "is_staff": True, "is_superuser": True},
    )


def demo_events_build(*, director) -> list[Event]:
    """Build the two demo events unless they exist (safe to run again)."""
    if not Event.objects.filter(name=FINISHED).exists():
        report = event_simulate(players=20, games=12, seed=2026, director=director, name=FINISHED)
        # The demo director is also the demo's administrator, and so its ACC office.
        event_sanction_request(event=report.event, user=director)
        event_sanction_grant(event=report.event, user=director, note="The demo's own Main")
        event_finalise_request(event=report.event, user=director)  # its MRPs to the ledger
    if not Club.objects.filter(name=CLUB).exists():
        club = club_create(name=CLUB, user=director, city="Springfield", region="Demo Region")
        club_recognition_request(club=club, user=director)
        club = club_recognition_grant(club=club, user=director, note="The demo's own club")
        today = timezone.localdate()
        for week, seed in ((3, 5), (2, 6)):
            event_simulate(
                players=12, games=9, seed=seed, director=director, club=club,
                played_on=today - timedelta(weeks=week),
            )  # fmt: skip
        report = event_simulate(
            players=12, games=9, seed=7, director=director, club=club, played_on=today,
            stop_after_game=4,
        )  # fmt: skip
        Event.objects.filter(pk=report.event.pk).update(name=IN_PROGRESS)
    return list(Event.objects.filter(Q(name=FINISHED) | Q(club__name=CLUB)))
