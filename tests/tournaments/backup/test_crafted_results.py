"""Crafted backups of what follows from the results (MRP awards, night cards, club awards),
of links to what is here already (a club, a Main, accounts), and through the command."""

from __future__ import annotations

import copy
import json
from datetime import date
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.factories import PlayerFactory, UserFactory
from tests.helpers import sanction
from tests.tournaments.backup.conftest import delete_event, restored_ledger, row_counts
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Club, ClubAward, Event, Game, MrpAward, NightCard
from tournaments.selectors.players import mrp_leaderboard
from tournaments.services.backup_export import event_export
from tournaments.services.backup_import import RESTORED, event_import
from tournaments.services.clubs import club_award_record
from tournaments.services.consolation import consolation_create
from tournaments.services.ledger import event_finalise_request

pytestmark = pytest.mark.django_db


def _points(event) -> dict[str, int]:
    """Current awards by the player's ACC number."""
    awards = MrpAward.objects.filter(event=event, current=True)
    return dict(awards.values_list("player__acc_number", "points"))


def test_nine_thousand_mrps_on_a_player_here_come_to_nothing(
    finished_event,  # noqa: F811
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    event = finished_event()
    with capture(execute=True):
        event_finalise_request(event=event, user=event.director)
    honest = _points(event)
    doc = event_export(event=event)
    delete_event(event, doc)
    # The forger puts a player here in the place of the champion, with 9,999 MRPs.
    victim = PlayerFactory(name="Vic Tim")
    champion = max(doc["ledger"]["awards"], key=lambda a: a["points"] if a["current"] else -1)
    row = next(p for p in doc["players"] if p["key"] == champion["player"])
    replaced, row["acc_number"] = row["acc_number"], victim.acc_number
    for award in doc["ledger"]["awards"]:
        if award["player"] == champion["player"]:
            award.update(points=9999, qualifying_points=9999 - award["playoff_points"])
    with capture(execute=True):
        restored = event_import(data=doc, user=UserFactory())
    assert not MrpAward.objects.exists() and not mrp_leaderboard().exists()
    assert restored_ledger(restored) == [(1, 0, 0, RESTORED)] and not restored.sanctioned
    history = AuditEntry.objects.get(event=restored, action="event_import")
    assert history.after["awards_in_the_file_not_restored"] == len(doc["ledger"]["awards"])
    # Once the ACC office sanctions it, the awards are the results' own.
    with capture(execute=True):
        sanction(restored)
    expected = {victim.acc_number if n == replaced else n: p for n, p in honest.items()}
    assert _points(restored) == expected and expected[victim.acc_number] < 9999


def test_results_said_final_without_a_champion_are_refused(
    finished_event,  # noqa: F811
):
    event = finished_event(play=False, sanctioned=False)
    doc = event_export(event=event)
    delete_event(event, doc)
    doc["event"]["finalised_at"] = "2026-05-01T12:00:00+00:00"
    importer = UserFactory()
    before = row_counts()
    with pytest.raises(ServiceError, match="cannot be final here: The final is not") as no:
        event_import(data=doc, user=importer)
    assert no.value.field == "event.finalised_at" and row_counts() == before


@pytest.fixture
def club_night(club_world):  # noqa: F811
    """A club night's backup with a 9-0 night recorded; the night and its club are gone."""
    night = club_world.night(date(2026, 10, 6))
    best = night.entries.get(player=club_world.players[0])
    club_award_record(club=club_world.club, user=club_world.director, entry=best, kind="grand_slam")
    doc = event_export(event=night)
    delete_event(night, doc)
    club_world.club.delete()
    return doc


def test_night_cards_are_worked_out_from_the_results(club_night):
    doc = copy.deepcopy(club_night)
    honest = {card["player"]: card["grass_roots_points"] for card in doc["night_cards"]}
    for card in doc["night_cards"]:
        card["grass_roots_points"] = 999
    restored = event_import(data=doc, user=UserFactory())
    cards = NightCard.objects.filter(event=restored)
    assert not cards.filter(grass_roots_points=999).exists() and cards.count() == len(honest)
    assert sorted(cards.values_list("grass_roots_points", flat=True)) == sorted(honest.values())


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"kind": "hand_29", "hand": "5H 5D 5C JS", "starter": "KS"}, "club_awards[0].hand",
         "not 29"),
        ({"kind": "grand_slam", "player": "P2"}, "club_awards[0].kind",
         "does not show every game won"),
        ({"kind": "hand_31"}, "club_awards[0].kind", "is not one of"),
    ],
)  # fmt: skip
def test_a_club_award_the_results_do_not_show_is_refused(club_night, change, field, message):
    doc = copy.deepcopy(club_night)
    doc["club_awards"][0].update(change)
    importer = UserFactory()
    before = row_counts()
    with pytest.raises(ServiceError, match=message) as no:
        event_import(data=doc, user=importer)
    assert no.value.field == field and row_counts() == before


def test_a_club_here_is_named_only_by_its_director(club_world):  # noqa: F811
    night = club_world.night(date(2026, 10, 6))
    doc = event_export(event=night)
    Game.objects.filter(event=night).delete()
    night.delete()  # the club, its directors and its players stay
    importer = UserFactory()
    before = row_counts()
    with pytest.raises(ServiceError, match="only its directors restore its events") as no:
        event_import(data=doc, user=importer)
    assert no.value.field == "event.club" and row_counts() == before
    restored = event_import(data=doc, user=club_world.director)
    assert restored.club == Club.objects.get(name=club_world.club.name)
    assert ClubAward.objects.count() == 0


def test_a_main_here_is_the_parent_only_for_its_director(finished_main):  # noqa: F811
    main = finished_main()
    consolation = consolation_create(main_event=main, user=main.director)
    doc = event_export(event=consolation)
    delete_event(consolation, doc)
    assert event_import(data=doc, user=UserFactory()).parent is None


def test_roles_given_to_accounts_here_are_named_in_the_history(event_in_play):
    event = event_in_play(4, qualifying_games=3)
    doc = event_export(event=event)
    delete_event(event, doc)
    admin = UserFactory(username="admin", is_staff=True)
    doc["users"].append({"username": "admin", "first_name": "", "last_name": "", "email": ""})
    doc["roles"].append({"role": "judge", "user": "admin"})
    restored = event_import(data=doc, user=UserFactory())
    assert restored.roles.filter(user=admin, role="judge").exists()
    history = AuditEntry.objects.get(event=restored, action="event_import")
    assert history.after["accounts_already_here"] == ["admin"]
    admin.refresh_from_db()
    assert admin.is_staff and admin.has_usable_password()  # found, used as it is


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"format": "pegboard-event", "version": NaN}', "NaN is not a JSON number"),
        ('{"version": ' + "9" * 5000 + "}", "is not JSON"),
        ("[" * 50_000 + "]" * 50_000, "nested 50000 deep"),
        ("not json", "is not JSON"),
    ],
)
def test_the_command_refuses_a_file_that_is_not_a_backup_in_words(tmp_path, text, message):
    UserFactory(username="restorer")
    path = tmp_path / "backup.json"
    path.write_text(text)
    with pytest.raises(CommandError, match=message):
        call_command("import_event", str(path), user="restorer", stdout=StringIO())


def test_the_command_refuses_an_out_of_range_number_in_words(event_in_play, tmp_path):
    event = event_in_play(4, qualifying_games=3)
    doc = event_export(event=event)
    delete_event(event, doc)
    doc["games"][0]["seed"] = 10**40
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(doc))
    UserFactory(username="restorer")
    before = row_counts()
    with pytest.raises(CommandError, match=r"refused at games\[0\].seed: .* is out of range"):
        call_command("import_event", str(path), user="restorer", stdout=StringIO())
    assert row_counts() == before and not Event.objects.exists()
