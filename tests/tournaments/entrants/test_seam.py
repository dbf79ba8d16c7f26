"""The entrant seam: every page, sheet and export of an event names its entries through
``Entry.name`` and ``selectors.entrants.entry_names`` (one player today; a doubles team will
give two names).

With both answering a team's name for every entry, no page of a finished event may
still print a player's own name: each one that did would have to be found by hand when teams
arrive.
"""

import pytest
from django.urls import reverse

from tournaments.models import Entry
from tournaments.selectors import entrants
from tournaments.services import prizes
from tournaments.services.ledger import event_finalise_request

pytestmark = pytest.mark.django_db


def _pages(event) -> dict[str, str]:
    names = {
        "standings": reverse("standings", args=[event.pk]),
        "results": reverse("event-results", args=[event.pk]),
        "results csv": reverse("event-results-csv", args=[event.pk]),
        "payouts csv": reverse("event-payouts-csv", args=[event.pk]),
        "acc sheet": reverse("event-acc-results", args=[event.pk]),
        "acc csv": reverse("event-acc-results-csv", args=[event.pk]),
        "bracket": reverse("playoff-bracket", args=[event.pk]),
        "pairings": reverse("game-detail", args=[event.pk, 1]),
        "scorecards": reverse("scorecards", args=[event.pk]),
        "wall": reverse("event-wall", args=[event.pk]),
    }
    return names


def test_every_page_of_an_event_names_its_entries_through_the_seam(
    finished_event,  # noqa: F811
    client,
    monkeypatch,
    django_capture_on_commit_callbacks,
):
    event = finished_event(players=14, games=12, preset="acc-main")
    prizes.event_money_update(
        event=event, user=event.director, entry_fee_cents=2000, sanctioning_fee_cents=0,
        payout_percents={"1": 50, "2": 30, "3-4": 20}, qualifier_pool={},
    )  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        event_finalise_request(event=event, user=event.director)
    people = [e.player.name for e in Entry.objects.filter(event=event).select_related("player")]
    monkeypatch.setattr(Entry, "name", property(lambda entry: f"Team No. {entry.pk}"))
    monkeypatch.setattr(
        entrants,
        "entry_names",
        lambda *, entries: {pk: f"Team No. {pk}" for pk in entries.values_list("pk", flat=True)},
    )
    client.force_login(event.director)
    teams_seen = {}
    for page, url in _pages(event).items():
        response = client.get(url)
        assert response.status_code == 200, (page, response.status_code)
        body = response.content.decode()
        printed = [name for name in people if name in body]
        assert printed == [], f"{page} prints players' own names: {printed[:3]}"
        teams_seen[page] = body.count("Team No. ")
    assert [page for page, count in teams_seen.items() if not count] == [], teams_seen
