"""The Consolation's new private links reach its players: their Main page (and the report API)
points to their Consolation page as soon as it exists, and those who gave the Main an e-mail
address are sent the new link once, by a job (issue 22, item 9)."""

from html import unescape

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tournaments.models import Entry, Event
from tournaments.services.consolation import consolation_create
from tournaments.services.consolation_emails import consolation_links_send

pytestmark = pytest.mark.django_db


@pytest.fixture
def main_and_consy(finished_main, django_capture_on_commit_callbacks):
    event = finished_main()
    Event.objects.filter(pk=event.pk).update(stage=Event.Stage.PLAYOFFS)  # as the cut leaves it
    missed = event.ranked[5:]  # 20 players, 5 qualify
    for n, entry in enumerate(missed[:3]):
        Entry.objects.filter(pk=entry.pk).update(email=f"p{n}@example.org", phone=f"555-{n}")
    Entry.objects.filter(pk=event.ranked[0].pk).update(email="champ@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        consy = consolation_create(main_event=event, user=event.director)
    return event, consy, missed


def test_the_main_page_and_api_point_to_the_consolation_page(main_and_consy, client):
    event, consy, missed = main_and_consy
    main_entry = missed[4]
    theirs = Entry.objects.get(event=consy, player_id=main_entry.player_id)
    assert theirs.report_token != main_entry.report_token  # a new link: it must be told
    page = unescape(
        client.get(reverse("player-page", args=[main_entry.report_token])).content.decode()
    )
    assert "You are in the Consolation" in page
    assert f'href="/r/{theirs.report_token}/"' in page and consy.name in page
    body = APIClient().get(f"/api/v1/report/{main_entry.report_token}/").json()
    assert body["consolation"] == {
        "event_id": consy.pk,
        "event": consy.name,
        "page": f"/r/{theirs.report_token}/",
        "report": f"/api/v1/report/{theirs.report_token}/",
    }
    qualifier = event.ranked[0]
    assert (
        APIClient().get(f"/api/v1/report/{qualifier.report_token}/").json()["consolation"] is None
    )
    page = client.get(reverse("player-page", args=[qualifier.report_token])).content.decode()
    assert "You are in the Consolation" not in page


def test_players_with_an_address_are_emailed_their_new_link_once(main_and_consy, mailoutbox):
    event, consy, missed = main_and_consy
    by_address = {m.to[0]: m for m in mailoutbox}
    assert set(by_address) == {"p0@example.org", "p1@example.org", "p2@example.org"}
    first = Entry.objects.get(event=consy, player_id=missed[0].player_id)
    assert (first.email, first.phone) == ("p0@example.org", "555-0")  # as given the Main
    message = by_address["p0@example.org"]
    assert consy.name in message.subject
    assert f"/r/{first.report_token}/" in message.body and missed[0].player.name in message.body
    assert first.link_emailed_at is not None
    again = consolation_links_send(event_id=consy.pk, progress=lambda *a: None)
    assert again["sent"] == 0 and len(mailoutbox) == 3
