"""A club night's backup: its club with the club's settings, players' cards and awards."""

from datetime import date

import pytest

from tests.factories import UserFactory
from tests.tournaments.backup.conftest import comparable, delete_event
from tournaments.models import Club, Entry, Player
from tournaments.services.backup_export import event_export
from tournaments.services.backup_import import event_import
from tournaments.services.clubs import club_award_record, club_update_settings

pytestmark = pytest.mark.django_db


def test_a_club_night_comes_back_with_its_club_cards_and_awards(club_world):  # noqa: F811
    club = club_update_settings(
        club=club_world.club, user=club_world.director, region="Northeast", drop_worst_nights=2
    )
    Player.objects.filter(pk=club_world.players[3].pk).update(home_club=club)
    night = club_world.night(date(2026, 10, 6))
    Entry.objects.filter(event=night, player=club_world.players[3]).update(phone="555-0100")
    best = Entry.objects.get(event=night, player=club_world.players[0])
    club_award_record(club=club, user=club_world.director, entry=best, kind="grand_slam")
    first = event_export(event=night)
    assert len(first["night_cards"]) == 10 and len(first["club_awards"]) == 1
    assert [c["name"] for c in first["clubs"]] == ["Tuesday Pegs"]
    assert first["event"]["club"] == "Tuesday Pegs"
    delete_event(night, first)
    club.delete()  # so the import must make the club from the backup
    assert not Club.objects.exists()
    restored = event_import(data=first, user=UserFactory(username="archivist"))
    assert comparable(event_export(event=restored), importer="archivist") == comparable(first)
    made = Club.objects.get()
    assert (made.region, made.drop_worst_nights, made.night_games) == ("Northeast", 2, 9)
    assert Entry.objects.get(event=restored, phone="555-0100").player.home_club == made
