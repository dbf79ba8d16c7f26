"""One player across events: entry and import match by ACC number, else offer likely matches
by name to confirm; an ACC number can be given later; administrators merge records and undo
it (linking accounts: tests/tournaments/account_links)."""

import pytest

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tests.helpers import client_for
from tournaments.errors import ServiceError
from tournaments.models import Entry, MrpAward, Player, PlayerMerge
from tournaments.services.entries import PlayerChoiceNeeded, Registration, entry_register
from tournaments.services.entries_import import ImportChoicesNeeded, entries_import_csv
from tournaments.services.players import player_merge, player_merge_undo
from tournaments.services.record_changes import player_record_change

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    director = UserFactory()
    event = EventFactory(director=director)
    event.director = director
    return event


def _register(event, **fields):
    return entry_register(event=event, registration=Registration(**fields), user=event.director)


def test_an_acc_number_finds_the_same_player(event):
    known = PlayerFactory(name="Ann Able", acc_number="A-100")
    entry = _register(event, name="Ann Able", acc_number="A-100")
    assert entry.player == known and Player.objects.count() == 1


def test_a_likely_name_is_asked_about_never_merged_silently(event):
    john = PlayerFactory(name="John Smith", acc_number="")
    with pytest.raises(PlayerChoiceNeeded) as asked:
        _register(event, name="Jon  Smith")
    assert [c.player for c in asked.value.candidates] == [john]
    assert not Entry.objects.filter(event=event).exists()
    same = _register(event, name="Jon Smith", player_id=john.pk)
    assert same.player == john
    other_event = EventFactory(director=event.director)
    other_event.director = event.director
    new = _register(other_event, name="john smith", new_player=True)
    assert new.player != john and Player.objects.filter(name__iexact="john smith").count() == 2


def test_the_page_asks_who_it_is(client, event):
    john = PlayerFactory(name="John Smith", acc_number="")
    client.force_login(event.director)
    url = f"/events/{event.pk}/entries/add/"
    asked = client.post(url, {"name": "John Smith"})
    page = asked.content.decode()
    assert asked.status_code == 200 and "Is this a player Pegboard already knows?" in page
    assert f'value="{john.pk}"' in page and not Entry.objects.filter(event=event).exists()
    client.post(url, {"name": "John Smith", "player_choice": str(john.pk)})
    assert Entry.objects.get(event=event).player == john


def test_an_import_asks_about_likely_rows_first(client, event):
    john = PlayerFactory(name="John Smith", acc_number="")
    text = "name,acc_number\nJohn Smith,\nNew Person,\nAnn Able,A-1\n"
    with pytest.raises(ImportChoicesNeeded) as asked:
        entries_import_csv(event=event, text=text, user=event.director)
    assert [(row, name) for row, name, _ in asked.value.rows] == [(2, "John Smith")]
    assert not Entry.objects.filter(event=event).exists()
    client.force_login(event.director)
    url = f"/events/{event.pk}/entries/import/"
    page = client.post(url, {"text": text}).content.decode()
    assert "Who are these players?" in page and 'name="match_2"' in page
    client.post(url, {"text": text, "match_2": str(john.pk)})
    assert Entry.objects.filter(event=event).count() == 3
    assert Entry.objects.get(event=event, player__name="John Smith").player == john


def test_the_api_names_the_candidates(event):
    john = PlayerFactory(name="John Smith", acc_number="J-1")
    Player.objects.filter(pk=john.pk).update(acc_number="")
    api = client_for(event.director)
    url = f"/api/v1/events/{event.pk}/entries/"
    asked = api.post(url, {"name": "John Smith"}, format="json")
    error = asked.json()["errors"][0]
    assert asked.status_code == 400 and error["code"] == "confirm_player"
    assert error["candidates"][0]["player_id"] == john.pk
    made = api.post(url, {"name": "John Smith", "player_id": john.pk}, format="json")
    assert made.status_code == 201 and made.json()["player"] == john.pk
    imported = api.post(
        f"/api/v1/events/{event.pk}/entries/import/",
        {"csv": "name\nJohn Smith\n"},
        format="json",
    )
    # already entered here: skipped, not entered twice nor taken for someone new
    assert imported.status_code == 201 and imported.json() == []
    assert Player.objects.filter(name="John Smith").count() == 1


def test_an_acc_number_given_later(event, client):
    player = PlayerFactory(name="Ann Able", acc_number="")
    EntryFactory(event=event, player=player)
    player_record_change(player=player, acc_number="A-7", user=event.director)
    player.refresh_from_db()
    assert player.acc_number == "A-7"  # a record only this director's events use
    PlayerFactory(name="Bob Bee", acc_number="B-1")
    with pytest.raises(ServiceError, match="belongs to Bob Bee"):
        player_record_change(player=player, acc_number="B-1", user=event.director)
    with pytest.raises(ServiceError, match="director of an event the player entered"):
        player_record_change(player=player, acc_number="A-8", user=UserFactory())
    api = client_for(event.director)
    answer = api.patch(f"/api/v1/players/{player.pk}/", {"acc_number": "A-9"}, format="json")
    assert answer.status_code == 200 and answer.json()["acc_number"] == "A-9"


def test_merge_moves_history_and_undo_puts_it_back(event):
    admin = UserFactory(is_staff=True)
    keep = PlayerFactory(name="Ann Able", acc_number="A-1")
    gone = PlayerFactory(name="Ann Able", acc_number="")
    gone_entry = EntryFactory(event=event, player=gone)
    merge = player_merge(keep=keep, merge=gone, user=admin)
    gone_entry.refresh_from_db()
    gone.refresh_from_db()
    assert gone_entry.player == keep and gone.merged_into == keep
    assert client_for().get(f"/api/v1/players/{gone.pk}/").json()["id"] == keep.pk
    player_merge_undo(merge=merge, user=admin)
    gone_entry.refresh_from_db()
    gone.refresh_from_db()
    keep.refresh_from_db()
    assert gone_entry.player == gone and gone.merged_into is None and keep.acc_number == "A-1"
    assert PlayerMerge.objects.get().undone_at is not None


def test_merges_of_different_people_are_refused(event):
    admin = UserFactory(is_staff=True)
    a, b = PlayerFactory(), PlayerFactory()  # two ACC numbers
    with pytest.raises(ServiceError, match="different ACC numbers"):
        player_merge(keep=a, merge=b, user=admin)
    c = PlayerFactory(acc_number="")
    EntryFactory(event=event, player=a)
    EntryFactory(event=event, player=c)
    with pytest.raises(ServiceError, match="Both played in"):
        player_merge(keep=a, merge=c, user=admin)
    with pytest.raises(ServiceError, match="administrator"):
        player_merge(keep=a, merge=c, user=event.director)
    assert not PlayerMerge.objects.exists() and not MrpAward.objects.exists()


def test_the_merge_api_is_for_administrators(event):
    admin = UserFactory(is_staff=True)
    keep, gone = PlayerFactory(), PlayerFactory(acc_number="")
    body = {"keep": keep.pk, "merge": gone.pk}
    assert client_for(event.director).post("/api/v1/players/merges/", body).status_code == 403
    made = client_for(admin).post("/api/v1/players/merges/", body)
    assert made.status_code == 201
    undone = client_for(admin).post(f"/api/v1/players/merges/{made.json()['id']}/undo/")
    assert undone.status_code == 200 and undone.json()["undone_at"]
