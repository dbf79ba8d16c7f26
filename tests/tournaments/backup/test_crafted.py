"""Backups written by hand to do harm: each is refused with a message naming the section, the
row and the field, and nothing is saved; or, for what follows from the results, the import
works it out itself and the file's figures come to nothing."""

from __future__ import annotations

import copy

import pytest
from django.contrib.auth import get_user_model

from tests.factories import PlayerFactory, UserFactory
from tests.helpers import play_game
from tests.tournaments.backup.conftest import delete_event, forged, refused
from tournaments.models import AccountLink, Entry, Player
from tournaments.services.backup_export import event_export
from tournaments.services.backup_import import event_import

pytestmark = pytest.mark.django_db


@pytest.fixture
def backup(event_in_play, django_capture_on_commit_callbacks):
    """A backup with private links of an event of 4 players whose game 1 is played (its
    seats have card lines); the event is gone from the database, so the backup imports."""
    event = event_in_play(4, qualifying_games=3)
    strength = {
        e: i for i, e in enumerate(event.entries.order_by("pk").values_list("pk", flat=True))
    }
    with django_capture_on_commit_callbacks(execute=True):
        play_game(event, 1, strength=strength)
    doc = event_export(event=event, include_tokens=True)
    delete_event(event, doc)
    return doc


LINES = ("games", 0, "seats", 0, "lines", 0)
CASES = [
    # Private links: exactly what new_report_token makes.
    (("entries", 0, "report_token"), "ab", "entries[E1].report_token", "not a private link"),
    (("entries", 0, "report_token"), "A" * 64, "entries[E1].report_token", "32 characters"),
    (("entries", 1, "previous_report_token"), "x y", "entries[E2].previous_report_token",
     "not a private link"),
    # Choices are the models' choices.
    (("event", "stage"), "champion", "event.stage", "'champion' is not one of: registration"),
    (("event", "kind"), "world_final", "event.kind", "is not one of"),
    (("event", "settings", "pairing_mode"), "seeded", "event.settings.pairing_mode", "one of"),
    (("entries", 0, "status"), "vip", "entries[E1].status", "is not one of"),
    (("roles", 0, "role"), "owner", "roles[0].role", "is not one of"),
    (("audit", 0, "kind"), "secret", "audit[0].kind", "is not one of"),
    ((*LINES, "source"), "oracle", "games[0].seats[0].lines[0].source", "is not one of"),
    (("event", "preset"), "world-series", "event.preset", "not a preset here"),
    # Numbers: huge, negative, fractions, text, true; within the validators and the event.
    (("event", "settings", "qualifying_games"), 10**30, "event.settings.qualifying_games",
     "out of range"),
    (("event", "settings", "qualifying_games"), 61, "event.settings.qualifying_games",
     "less than or equal to 60"),
    (("event", "settings", "target_score"), -121, "event.settings.target_score", "out of range"),
    (("event", "settings", "skunk_margin"), 200, "event.settings", "skunk_margin"),
    (("games", 0, "seed"), 2**70, "games[0].seed", "out of range"),
    (("games", 0, "tables", 0, "number"), -1, "games[0].tables[0].number", "out of range"),
    (("games", 0, "tables", 0, "number"), 0, "games[0].tables[0].number", "not a table number"),
    (("games", 0, "number"), 4, "games[0].number", "not a game of the qualifying round"),
    (("entries", 0, "joined_from_game"), 1.0, "entries[E1].joined_from_game", "whole number"),
    (("entries", 0, "missed_games"), [99], "entries[E1].missed_games[0]", "a game of this event"),
    (("event", "money", "entry_fee_cents"), "2500", "event.money.entry_fee_cents", "whole number"),
    (("event", "money", "payout_percents"), {"first": 50}, "event.money.payout_percents",
     "not a finish band"),
    ((*LINES, "plus"), True, "games[0].seats[0].lines[0].plus", "whole number"),
    ((*LINES, "game_points"), 9, "games[0].seats[0].lines[0].game_points", "game points"),
    (("games", 0, "seats", 0, "position"), 3, "games[0].seats[0].position", "1 or 2"),
    (("entries", 0, "checked_in_at"), "yesterday", "entries[E1].checked_in_at", "expected a time"),
    (("event", "published"), 1, "event.published", "true or false"),
    # Names and contact details, as validation.py checks them.
    (("players", 0, "name"), "Ann\nSmith", "players[P1].name", "control character"),
    (("event", "name"), "Open\x00", "event.name", "NUL"),
    (("users", 0, "first_name"), "Ann\x1b[31m", "users[0].first_name", "control character"),
    (("entries", 0, "email"), "a@b.org, c@d.org", "entries[E1].email", "not an e-mail address"),
    (("users", 0, "email"), "nobody", "users[0].email", "not an e-mail address"),
    (("entries", 0, "phone"), "555\r\n0100", "entries[E1].phone", "control character"),
    (("players", 0, "acc_number"), "12 34", "players[P1].acc_number", "not an ACC number"),
    # References name rows of the backup; keys are keys.
    (("games", 0, "seats", 0, "entry"), "E99", "games[0].seats[0].entry", "names entry 'E99'"),
    (("entries", 0, "key"), "E1; DROP", "entries[0].key", "expected a key"),
]  # fmt: skip


@pytest.mark.parametrize(("path", "value", "field", "message"), CASES)
def test_a_crafted_value_is_refused_naming_its_place(backup, path, value, field, message):
    refusal = refused(forged(backup, path, value))
    assert refusal.field == field
    assert message in refusal.message and field in refusal.message


def test_the_same_backup_untouched_imports(backup):
    event = event_import(data=backup, user=UserFactory(username="restorer"))
    assert event.entries.count() == 4


def test_a_file_never_links_an_account_to_a_player(backup):
    """A version 1 player row naming an account is refused; a version 2 row names none, and
    a player found here keeps their own account."""
    victim = UserFactory(username="victim")
    v1 = forged(backup, ("players", 0, "user"), "victim")
    assert refused(v1).field == "players[P1].user"
    event = event_import(data=backup, user=UserFactory(username="restorer"))
    assert not Player.objects.filter(entries__event=event, user__isnull=False).exists()
    assert not AccountLink.objects.filter(user=victim).exists()


def test_a_player_here_found_by_acc_number_keeps_their_record(backup):
    here = PlayerFactory(name="Vera Here", home_club=None)
    doc = forged(backup, ("players", 0, "acc_number"), here.acc_number)
    doc["players"][0]["name"] = "Mallory"
    event = event_import(data=doc, user=UserFactory(username="restorer"))
    here.refresh_from_db()
    assert (here.name, here.home_club) == ("Vera Here", None)
    assert Entry.objects.filter(event=event, player=here).exists()
    assert not Player.objects.filter(name="Mallory").exists()


def test_two_rows_of_one_acc_number_are_refused(backup):
    doc = forged(backup, ("players", 1, "acc_number"), backup["players"][0]["acc_number"])
    assert refused(doc).field == "players[P2].acc_number"


def test_links_in_use_here_as_a_previous_link_are_refused(backup):
    event = event_import(data=backup, user=UserFactory(username="restorer"))
    entry = Entry.objects.filter(event=event).first()
    doc = forged(backup, ("event", "name"), "Another name")
    for row in doc["entries"]:
        row["report_token"] = row["report_token"][::-1]  # new links, but one is in use...
    Entry.objects.filter(pk=entry.pk).update(
        previous_report_token=doc["entries"][0]["report_token"]
    )
    assert refused(doc).field == "include_tokens"


def test_a_link_replaced_in_the_future_is_refused(backup):
    doc = forged(backup, ("entries", 0, "token_replaced_at"), "2999-01-01T00:00:00+00:00")
    assert refused(doc).field == "entries[E1].token_replaced_at"


def test_a_user_name_django_refuses_is_refused(backup):
    doc = copy.deepcopy(backup)
    old = doc["users"][0]["username"]
    doc["users"][0]["username"] = "bad name!"
    assert refused(doc).field == "users[0].username"
    assert not get_user_model().objects.filter(username=old).exists()
