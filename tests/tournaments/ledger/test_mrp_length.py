"""A sanctionable event whose qualifying length has no published MRP table is told so at setup
(settings page, the API's event answers, the sanctioning request) with the two choices, and
choosing "by hand" works: it is finalised without MRPs (issue 22, item 12)."""

import pytest

from tests.factories import UserFactory
from tests.helpers import client_for
from tournaments.core.mrp import mrp_length_note
from tournaments.models import Event, MrpAward
from tournaments.services.ledger import event_finalise_request

pytestmark = pytest.mark.django_db


def test_the_note_names_the_tabled_lengths_and_both_choices():
    note = mrp_length_note("main", 13)
    assert "13 qualifying games" in note and "12, 14, 16, 18, 20, 21, 22" in note
    assert "change the qualifying length" in note and "by hand" in note
    assert mrp_length_note("main", 12) == "" and mrp_length_note("consolation", 7) == ""
    assert mrp_length_note("satellite", 13) == ""  # earns no MRPs anyway


def test_the_api_says_so_at_create_and_patch_and_sanctioning_request():
    director = UserFactory()
    api = client_for(director)
    made = api.post("/api/v1/events/", {"name": "Long Main", "preset": "acc-main"})
    assert made.status_code == 201, made.content
    assert made.json()["mrp_note"] == ""
    event_id = made.json()["id"]
    patched = api.patch(f"/api/v1/events/{event_id}/", {"qualifying_games": 13})
    assert patched.status_code == 200, patched.content
    assert "No published ACC MRP table" in patched.json()["mrp_note"]
    odd = api.post("/api/v1/events/", {"name": "Odd", "preset": "acc-main", "qualifying_games": 15})
    assert "15 qualifying games" in odd.json()["mrp_note"]
    asked = api.post(f"/api/v1/events/{event_id}/sanctioning/request/")
    assert asked.status_code == 200, asked.content
    assert "by hand" in asked.json()["mrp_note"]


def test_the_settings_page_says_so_with_a_link_to_the_length(client):
    director = UserFactory()
    made = client_for(director).post(
        "/api/v1/events/", {"name": "Odd", "preset": "acc-main", "qualifying_games": 13}
    )
    client.force_login(director)
    page = client.get(f"/events/{made.json()['id']}/settings/").content.decode()
    assert "No published ACC MRP table" in page and 'href="#id_qualifying_games"' in page
    manage = client.get(f"/events/{made.json()['id']}/manage/").content.decode()
    assert "No published ACC MRP table" in manage


def test_by_hand_it_is_finalised_without_mrps(
    client, finished_event, django_capture_on_commit_callbacks
):
    event = finished_event(preset="acc-consolation", games=6)
    assert event.sanctioned
    with django_capture_on_commit_callbacks(execute=True):
        event_finalise_request(event=event, user=event.director)
    assert Event.objects.get(pk=event.pk).finalised_at is not None
    assert not MrpAward.objects.filter(event=event).exists()
    package = client_for(event.director).get(f"/api/v1/events/{event.pk}/acc-results/").json()
    assert package["mrp_schedule"] is None and "report this event by hand" in package["mrp_note"]
    assert all(row["mrp"] is None for row in package["rows"])
    client.force_login(event.director)
    sheet = client.get(f"/events/{event.pk}/acc-results/").content.decode()
    assert "report this event by hand" in sheet
