"""Demo data for ``make run``: a finished, finalised weekend Main (12 games, so it earns Master
Rating Points) and a club night in progress, both played through the real services by the
engine's simulator (see ``services.simulation``)."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from tournaments.models import Event
from tournaments.services.ledger import event_finalise_request
from tournaments.services.simulation import event_simulate

FINISHED = "Demo Weekend: Main (finished)"
IN_PROGRESS = "Demo Club Night (in progress)"


def demo_director():
    return get_user_model().objects.get_or_create(
        username="director", defaults={"email": "director@example.org"}
    )


def demo_events_build(*, director) -> list[Event]:
    """Build the two demo events unless they exist (safe to run again)."""
    if not Event.objects.filter(name=FINISHED).exists():
        report = event_simulate(players=20, games=12, seed=2026, director=director, name=FINISHED)
        event_finalise_request(event=report.event, user=director)  # its MRPs to the ledger
    if not Event.objects.filter(name=IN_PROGRESS).exists():
        event_simulate(
            players=12, games=9, seed=7, director=director, name=IN_PROGRESS,
            preset="grass-roots", stop_after_game=4,
        )  # fmt: skip
    return list(Event.objects.filter(name__in=[FINISHED, IN_PROGRESS]))
