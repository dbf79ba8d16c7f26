"""ACC club recognition (issue 27): who may ask, decide and withdraw, by service, API and page;
each refusal names its cause and the way forward and changes nothing; recognition is never a
club setting; a new club starts unrecognised."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import ClubFactory, UserFactory
from tests.helpers import client_for
from tournaments.errors import ServiceError
from tournaments.models import Club, ClubAuditEntry
from tournaments.services.club_recognition import (
    club_recognition_decline,
    club_recognition_grant,
    club_recognition_request,
    club_recognition_request_withdraw,
    club_recognition_revoke,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    return ClubFactory(name="Harbour Pegs", recognised=False)


@pytest.fixture
def office():
    return UserFactory(is_staff=True)


def _page(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_new_club_starts_unrecognised_and_may_not_set_it_itself():
    director = UserFactory()
    api = client_for(director)
    refused = api.post("/api/v1/clubs/", {"name": "Self Made", "recognised": True})
    assert refused.status_code == 400 and "recognised" in str(refused.json())
    assert not Club.objects.filter(name="Self Made").exists()
    made = api.post("/api/v1/clubs/", {"name": "Self Made"})
    assert made.status_code == 201
    assert made.json()["recognised"] is False
    assert "Until the ACC office recognises the club" in made.json()["recognition"]
    club_id = made.json()["club"]["id"]
    patched = api.patch(f"/api/v1/clubs/{club_id}/", {"recognised": True})
    assert patched.status_code == 400
    assert Club.objects.get(pk=club_id).recognised is False


def test_ask_withdraw_ask_then_grant_and_revoke(club, office):
    director = club.director
    club = club_recognition_request(club=club, user=director)
    assert club.recognition_requested_at is not None
    with pytest.raises(ServiceError, match="waiting for their answer"):
        club_recognition_request(club=club, user=director)
    club = club_recognition_request_withdraw(club=club, user=director)
    assert club.recognition_requested_at is None
    with pytest.raises(ServiceError, match="No request is waiting: ask the ACC office first"):
        club_recognition_request_withdraw(club=club, user=director)
    club_recognition_request(club=club, user=director)
    club = club_recognition_grant(club=club, user=office, note="Chartered 2019")
    assert club.recognised and club.recognised_at and club.recognition_note == "Chartered 2019"
    assert club.recognition_requested_at is None
    with pytest.raises(ServiceError, match="recognised already"):
        club_recognition_request(club=club, user=director)
    with pytest.raises(ServiceError, match="Say why, for the club's directors"):
        club_recognition_revoke(club=club, user=office, note="  ")
    club = club_recognition_revoke(club=club, user=office, note="Charter lapsed")
    assert not club.recognised and club.recognised_at is None
    assert club.recognition_decision == "withdrawn"
    actions = list(
        ClubAuditEntry.objects.filter(club=club, kind="recognition")
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == [
        "club_recognition_request", "club_recognition_request_withdraw",
        "club_recognition_request", "club_recognition_grant", "club_recognition_revoke",
    ]  # fmt: skip


def test_decline_says_why_and_the_director_may_ask_again(club, office):
    director = club.director
    club_recognition_request(club=club, user=director)
    with pytest.raises(ServiceError, match="Say why"):
        club_recognition_decline(club=club, user=office, note="")
    club = club_recognition_decline(club=club, user=office, note="No ACC charter on file")
    assert not club.recognised and club.recognition_decision == "declined"
    detail = client_for().get(f"/api/v1/clubs/{club.pk}/").json()
    assert "No ACC charter on file" in detail["recognition"]
    assert "You may ask again" in detail["recognition"]
    club_recognition_request(club=club, user=director)  # asked again
    club_recognition_request_withdraw(club=club, user=director)
    with pytest.raises(ServiceError, match="a declined club's directors may ask again"):
        club_recognition_decline(club=club, user=office, note="x")


def test_only_directors_ask_and_only_the_office_decides(club, office):
    stranger = UserFactory()
    with pytest.raises(ServiceError, match="Only the club's directors ask"):
        club_recognition_request(club=club, user=stranger)
    for decide in (club_recognition_grant, club_recognition_decline, club_recognition_revoke):
        with pytest.raises(ServiceError, match="Only the ACC office or an administrator"):
            decide(club=club, user=club.director, note="mine")
    assert not ClubAuditEntry.objects.filter(club=club, kind="recognition").exists()
    club.refresh_from_db()
    assert not club.recognised and club.recognition_requested_at is None


def test_the_api_steps_and_their_refusals(club, office):
    url = f"/api/v1/clubs/{club.pk}/recognition/"
    director, api_office = client_for(club.director), client_for(office)
    assert director.get(url).json()["state"] == "not_asked"
    assert client_for(UserFactory()).get(url).status_code == 403
    assert client_for().get(url).status_code in (401, 403)
    assert director.post(url + "request/", {"note": "please"}).status_code == 400  # takes none
    asked = director.post(url + "request/")
    assert asked.status_code == 200 and asked.json()["state"] == "requested"
    again = director.post(url + "request/")
    assert again.status_code == 400 and "waiting for their answer" in str(again.json())
    assert director.post(url + "grant/").status_code == 403
    waiting = api_office.get("/api/v1/clubs/recognition/requests/").json()["results"]
    assert [row["club_id"] for row in waiting] == [club.pk]
    assert director.get("/api/v1/clubs/recognition/requests/").status_code == 403
    no_note = api_office.post(url + "decline/", {})
    assert no_note.status_code == 400 and "note" in str(no_note.json())
    assert api_office.post(url + "grant/", {"note": "Welcome", "extra": 1}).status_code == 400
    granted = api_office.post(url + "grant/", {"note": "Welcome"})
    assert granted.status_code == 200 and granted.json()["recognised"] is True
    revoked = api_office.post(url + "revoke/", {"note": "Charter lapsed"})
    assert revoked.json()["state"] == "withdrawn" and revoked.json()["note"] == "Charter lapsed"
    assert director.get(url).json()["state"] == "withdrawn"


def test_the_club_page_says_what_recognition_means_with_the_button(club, office):
    director = _page(club.director)
    page = director.get(f"/clubs/{club.pk}/").content.decode()
    assert "do not reach the players&#x27; skill ratings or the national Grass Roots" in page
    assert "Ask the ACC office to recognise the club" in page
    anyone = Client().get(f"/clubs/{club.pk}/").content.decode()
    assert "Not recognised by the ACC office yet" in anyone
    assert "Ask the ACC office" not in anyone
    asked = director.post(f"/clubs/{club.pk}/recognition/", {"action": "ask"}, follow=True)
    text = asked.content.decode()
    assert "Asked: the ACC office will recognise the club" in text
    assert "Take the request back" in text
    refused = director.post(f"/clubs/{club.pk}/recognition/", {"action": "ask"}, follow=True)
    assert "waiting for their answer" in refused.content.decode()
    listed = _page(office).get("/sanctioning/").content.decode()
    assert "Harbour Pegs" in listed and "Clubs waiting for recognition" in listed
    assert director.post(f"/clubs/{club.pk}/recognition/grant/").status_code == 403
    granted = _page(office).post(
        f"/clubs/{club.pk}/recognition/grant/", {"back": "office"}, follow=True
    )
    assert "Harbour Pegs is recognised." in granted.content.decode()
    club.refresh_from_db()
    assert club.recognised
    shown = director.get(f"/clubs/{club.pk}/").content.decode()
    assert "Recognised by the ACC office as an ACC club" in shown
    declined = _page(office).post(
        f"/clubs/{club.pk}/recognition/revoke/", {"note": ""}, follow=True
    )
    assert "Say why, for the club&#x27;s directors" in declined.content.decode()
    club.refresh_from_db()
    assert club.recognised  # refused: nothing changed


def test_the_admin_site_shows_recognition_but_does_not_change_it(office, club):
    office.is_superuser = True
    office.save()
    admin = _page(office)
    url = f"/admin/tournaments/club/{club.pk}/change/"
    form = admin.get(url)
    assert form.status_code == 200 and 'name="recognised"' not in form.content.decode()
    admin.post(url, {"name": club.name, "recognised": "on", "season_start_month": 9,
                     "season_end_month": 5, "grass_roots_rule": club.grass_roots_rule,
                     "drop_worst_nights": 0, "night_games": 9})  # fmt: skip
    club.refresh_from_db()
    assert club.recognised is False
