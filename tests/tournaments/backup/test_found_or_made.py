"""Importing into a database that already knows some of the people, the club or the Main."""

import pytest
from django.contrib.auth import get_user_model

from tests.factories import EntryFactory, PlayerFactory, UserFactory
from tests.helpers import link_account
from tests.tournaments.backup.conftest import delete_event
from tournaments.models import Club, Entry, Event, Player
from tournaments.services.backup_export import event_export
from tournaments.services.backup_import import event_import
from tournaments.services.clubs import club_create
from tournaments.services.consolation import consolation_create

pytestmark = pytest.mark.django_db


def _remove_event_only(event):
    """The event goes; its players, users and club stay (as in a database with other events)."""
    from tournaments.models import Game

    Game.objects.filter(event=event).delete()
    event.delete()


def test_people_and_clubs_already_here_are_used_not_copied(event_in_play):
    event = event_in_play(6, qualifying_games=3)
    club = club_create(name="Harbour Cribbage", user=event.director)
    no_number = EntryFactory(event=event, player=PlayerFactory(acc_number="", home_club=club))
    linked = Entry.objects.filter(event=event).exclude(pk=no_number.pk).first()
    fan = UserFactory(username="fan")
    link_account(linked.player, fan)
    doc = event_export(event=event)
    # A player's account and the record's own contact are the person's: never in a file.
    assert all(set(p) == {"key", "name", "acc_number", "created_at", "home_club"}
               for p in doc["players"])  # fmt: skip
    _remove_event_only(event)
    Player.objects.filter(pk=linked.player_id).update(name="Renamed Here")
    counts = (get_user_model().objects.count(), Player.objects.count(), Club.objects.count())
    restored = event_import(data=doc, user=event.director)
    # Every user and club found by name, every player with an ACC number by it: one more
    # player only, the one without a number.
    assert (get_user_model().objects.count(), Club.objects.count()) == counts[::2]
    assert Player.objects.count() == counts[1] + 1
    names = set(Entry.objects.filter(event=restored).values_list("player__name", flat=True))
    assert "Renamed Here" in names  # this database's record of the person wins
    made = Entry.objects.get(event=restored, player__acc_number="").player
    assert made.pk != no_number.player_id and made.home_club == club


def test_a_missing_user_is_made_without_a_usable_password(event_in_play):
    event = event_in_play(4, qualifying_games=3)
    doc = event_export(event=event)
    delete_event(event, doc)
    event_import(data=doc, user=None)
    director = get_user_model().objects.get(username=doc["event"]["created_by"])
    assert not director.has_usable_password() and not director.is_staff


def test_users_are_named_without_their_address_and_older_files_still_import(event_in_play):
    event = event_in_play(4, qualifying_games=3)
    doc = event_export(event=event)
    assert all(set(u) == {"username", "first_name", "last_name"} for u in doc["users"])
    delete_event(event, doc)
    for user in doc["users"]:  # a file written before users were named without it
        user["email"] = f"{user['username']}@old.example.org"
    event_import(data=doc, user=None)
    director = get_user_model().objects.get(username=doc["event"]["created_by"])
    assert director.email == f"{director.username}@old.example.org"


def test_a_consolation_is_linked_to_its_main_when_the_main_is_here(finished_main):  # noqa: F811
    main = finished_main()
    consolation = consolation_create(main_event=main, user=main.director)
    doc = event_export(event=consolation)
    assert doc["event"]["parent"] == {"name": main.name, "starts_on": None}
    _remove_event_only(consolation)
    assert event_import(data=doc, user=main.director).parent == main
    _remove_event_only(Event.objects.get(name=consolation.name))
    Event.objects.filter(pk=main.pk).update(name="Another Main")
    assert event_import(data=doc, user=main.director).parent is None
