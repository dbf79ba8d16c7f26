"""Clubs by name: an imported "Club" column matches the known clubs (capitals and accents
aside), names no club has are asked about before any club is made, and administrators merge
and remove clubs."""

from datetime import date

import pytest

from tests.factories import EventFactory, PlayerFactory, UserFactory
from tests.helpers import client_for
from tournaments.core.clubs import club_key
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Club, ClubAward, ClubRole, Entry, Event, NightCard
from tournaments.services.clubs import club_award_record, club_create
from tournaments.services.clubs_admin import club_merge, club_remove
from tournaments.services.entries_import import ImportChoicesNeeded, entries_import_csv

pytestmark = pytest.mark.django_db

LIST = (
    "name,acc_number,club\nAnn Able,A-1,QUEBEC\nBob Baker,B-2,Pine Club\nCy Cole,C-3,pine  club\n"
)


@pytest.fixture
def event():
    director = UserFactory()
    event = EventFactory(director=director)
    event.director = director
    return event


def test_one_normaliser_puts_case_accents_and_spacing_aside():
    assert club_key("Québec") == club_key(" QUEBEC ") == club_key("quebec.") == "quebec"
    assert club_key("Pine-Club") == club_key("pine  club") != club_key("Pine Clubs")


def test_an_import_matches_known_clubs_and_makes_none(event):
    quebec = Club.objects.create(name="Québec")
    pine = Club.objects.create(name="Pine Club")
    entries_import_csv(event=event, text=LIST, user=event.director)
    clubs = dict(Entry.objects.filter(event=event).values_list("player__name", "player__home_club"))
    assert clubs == {"Ann Able": quebec.pk, "Bob Baker": pine.pk, "Cy Cole": pine.pk}
    assert Club.objects.count() == 2


def test_unknown_names_are_asked_about_before_any_club_is_made(event):
    known = Club.objects.create(name="Pine Pegs")
    with pytest.raises(ImportChoicesNeeded) as asked:
        entries_import_csv(event=event, text=LIST, user=event.director)
    assert asked.value.clubs == [("QUEBEC", [2]), ("Pine Club", [3, 4])]
    assert list(Club.objects.all()) == [known] and not Entry.objects.exists()
    answers = {"quebec": "none", "Pine Club": known.pk}
    entries_import_csv(event=event, text=LIST, user=event.director, clubs=answers)
    clubs = dict(Entry.objects.filter(event=event).values_list("player__name", "player__home_club"))
    assert clubs == {"Ann Able": None, "Bob Baker": known.pk, "Cy Cole": known.pk}
    assert list(Club.objects.all()) == [known]


def test_the_import_api_and_page_ask_and_a_confirmed_new_club_is_made(client, event):
    api = client_for(event.director)
    url = f"/api/v1/events/{event.pk}/entries/import/"
    asked = api.post(url, {"csv": LIST}, format="json")
    assert asked.status_code == 400 and not Club.objects.exists()
    errors = {e["field"]: e for e in asked.json()["errors"]}
    assert errors["clubs.QUEBEC"]["rows"] == [2] and errors["clubs.Pine Club"]["rows"] == [3, 4]
    client.force_login(event.director)
    page = client.post(f"/events/{event.pk}/entries/import/", {"text": LIST}).content.decode()
    assert "Which clubs are these?" in page and "Pine Club" in page and 'name="club_2"' in page
    assert not Club.objects.exists()
    client.post(
        f"/events/{event.pk}/entries/import/",
        {"text": LIST, "club_name_1": "QUEBEC", "club_1": "new", "club_name_2": "Pine Club",
         "club_2": "none"},
    )  # fmt: skip
    assert list(Club.objects.values_list("name", flat=True)) == ["QUEBEC"]
    assert Entry.objects.filter(event=event).count() == 3


def test_one_entry_with_an_unknown_club_is_refused_until_confirmed(client, event):
    client.force_login(event.director)
    url = f"/events/{event.pk}/entries/add/"
    page = client.post(url, {"name": "Dee Dunn", "acc_number": "D-4", "club": "Québec"})
    assert "No club called" in page.content.decode() and not Club.objects.exists()
    client.post(url, {"name": "Dee Dunn", "acc_number": "D-4", "club": "Québec", "new_club": "on"})
    assert Entry.objects.get(event=event).player.home_club.name == "Québec"


def test_a_new_club_by_another_spelling_is_refused():
    Club.objects.create(name="Québec")
    with pytest.raises(ServiceError, match="already on Pegboard"):
        club_create(name="QUEBEC", user=UserFactory())


@pytest.fixture
def two_clubs(club_world):
    """The club of ``club_world`` with one finished night, and "Tuesday Pegz" made by mistake
    with a night, a member, an award and a director of its own."""
    typo_director = UserFactory()
    typo = club_create(name="Tuesday Pegz", user=typo_director)
    ClubRole.objects.create(club=typo, user=club_world.director)  # directs both: kept once
    club_world.night(date(2026, 9, 8))
    player = club_world.players[0]
    PlayerFactory(name="Mis Typed", home_club=typo)
    club, club_world.club = club_world.club, typo
    night = club_world.night(date(2026, 9, 15))
    club_award_record(
        club=typo, user=typo_director, entry=Entry.objects.get(event=night, player=player),
        kind="grand_slam",
    )  # fmt: skip
    return club, typo, night


def test_a_merge_moves_everything_and_says_so_in_the_nights_history(two_clubs):
    club, typo, night = two_clubs
    admin = UserFactory(is_staff=True)
    with pytest.raises(ServiceError, match="administrator"):
        club_merge(keep=club, merge=typo, user=club.roles.first().user)
    moved = club_merge(keep=club, merge=typo, user=admin)
    assert (moved["nights"], moved["members"], moved["awards"]) == (1, 1, 1)
    assert not Club.objects.filter(pk=typo.pk).exists()
    assert Event.objects.get(pk=night.pk).club == club
    assert set(NightCard.objects.values_list("club", flat=True)) == {club.pk}
    assert ClubAward.objects.get().club == club and ClubRole.objects.filter(club=club).count() == 2
    history = AuditEntry.objects.get(event=night, action="club_merge")
    assert "Tuesday Pegz merged into Tuesday Pegs" in history.summary
    season = client_for().get(f"/api/v1/clubs/{club.pk}/standings/", {"season": 2026}).json()
    assert season["rows"][0]["nights"] == 2


def test_removal_is_refused_naming_what_blocks_it(two_clubs):
    club, typo, _ = two_clubs
    admin = UserFactory(is_staff=True)
    with pytest.raises(ServiceError) as refused:
        club_remove(club=typo, user=admin)
    assert "1 night, 1 member, 1 award" in refused.value.message
    assert "Merge it into the club it should be (/clubs/admin/)" in refused.value.message
    empty = Club.objects.create(name="Nobody's Club")
    club_remove(club=empty, user=admin)
    assert not Club.objects.filter(pk=empty.pk).exists()


def test_the_clubs_api_and_page_are_for_administrators(client, two_clubs):
    club, typo, _ = two_clubs
    admin = UserFactory(is_staff=True)
    director = club.roles.first().user
    body = {"into": club.pk}
    assert client_for().post(f"/api/v1/clubs/{typo.pk}/merge/", body).status_code in (401, 403)
    assert client_for(director).post(f"/api/v1/clubs/{typo.pk}/merge/", body).status_code == 403
    assert (
        client_for(admin)
        .post(f"/api/v1/clubs/{typo.pk}/merge/", {**body, "x": 1})
        .json()["errors"][0]["field"]
        == "x"
    )
    listing = client_for(admin).get("/api/v1/clubs/admin/").json()
    assert {c["name"]: c["nights"] for c in listing} == {"Tuesday Pegs": 1, "Tuesday Pegz": 1}
    refused = client_for(admin).post(f"/api/v1/clubs/{typo.pk}/remove/")
    assert refused.status_code == 400 and "1 night" in refused.json()["errors"][0]["message"]
    merged = client_for(admin).post(f"/api/v1/clubs/{typo.pk}/merge/", body, format="json")
    assert merged.status_code == 200 and merged.json()["kept"]["nights"] == 2
    client.force_login(admin)
    page = client.get("/clubs/admin/").content.decode()
    assert "Tidy the list of clubs" in page and "Tuesday Pegs" in page
    assert "Tuesday Pegz" not in page
    client.force_login(director)
    assert client.get("/clubs/admin/").status_code == 302


def test_a_rename_to_another_clubs_name_is_refused():
    from tournaments.services.clubs import club_update_settings

    director = UserFactory()
    Club.objects.create(name="Québec")
    pine = club_create(name="Pine Pegs", user=director)
    with pytest.raises(ServiceError, match="merge the two at /clubs/admin/"):
        club_update_settings(club=pine, user=director, name="quebec")
    assert club_update_settings(club=pine, user=director, name="PINE pegs").name == "PINE pegs"
