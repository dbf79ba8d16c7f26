"""Every page, read with absurd numbers in its query string (and posted to with absurd numbers in
its form), answers as a page does: never a server error. The routes come from the URL conf."""

import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tournaments.demo import demo_director, demo_events_build
from tournaments.models import Club, Entry, Event, Match, Player

# The demo weekend is built with jobs that run when their transaction commits.
pytestmark = pytest.mark.django_db(transaction=True)

HUGE = "9" * 40
QUERY = {name: HUGE for name in ("page", "game", "table", "year", "club", "season", "actor")}
FORM = {
    **QUERY,
    "margin": HUGE,
    "winner": HUGE,
    "loser": HUGE,
    "number": HUGE,
    "result": "won",
    "points": HUGE,
    "acc_number": HUGE,
    "position": HUGE,
    "confirm": "yes",
}
SKIPPED = ("admin/", "static/", "api/", "accounts/")


def _pages(patterns=None, prefix=""):
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        path = prefix + str(pattern.pattern)
        if path.startswith(SKIPPED):
            continue
        if isinstance(pattern, URLResolver):
            yield from _pages(pattern.url_patterns, path)
        elif isinstance(pattern, URLPattern):
            yield path


@pytest.fixture
def demo():
    director, _ = demo_director()
    director.is_staff = director.is_superuser = True
    director.save()
    demo_events_build(director=director)
    event = Event.objects.filter(finalised_at__isnull=False).first()
    return director, {
        "event_id": event.pk,
        "number": 1,
        "table_number": 1,
        "entry_id": Entry.objects.filter(event=event).first().pk,
        "player_id": Player.objects.first().pk,
        "club_id": Club.objects.first().pk,
        "match_id": Match.objects.filter(playoff__event=event).first().pk,
        "season": 2026,
        "token": Entry.objects.filter(event=event).first().report_token,
    }


def test_absurd_numbers_never_break_a_page(client, demo):
    director, values = demo
    client.force_login(director)
    broken = []
    for route in sorted(set(_pages())):
        path = "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values.get(m.group(1), 1)), route)
        for method in ("get", "post"):
            response = getattr(client, method)(path, QUERY if method == "get" else FORM)
            if response.status_code >= 500:
                broken.append(f"{method.upper()} {path}: {response.status_code}")
    assert not broken, "\n".join(broken)
