"""Journeys, not routes: chains of allowed steps that once let the wrong person act for a
player (issue 21). Each scenario walks the chain as an attacker or a careless user would,
through the API and the pages, and asserts that each refused step changed nothing.

- a stranger enters a known player by id in an event of their own, opens that entry's link
  signed in and asks to link their account;
- an opponent or a director who holds one of the player's links (a scanned scorecard), and
  what a new link leaves them;
- the player's contact details and record, seen and changed from a stranger's event;
- sanctioning set by the event's own director.
"""

from __future__ import annotations

import json
import re

import pytest
from django.core import mail

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tests.helpers import client_for
from tests.permissions.snapshot import state
from tournaments.models import AccountLink, Entry, Event, Job, MrpAward, Player, RecordChange

pytestmark = pytest.mark.django_db

CONTACT = ("vera.second@example.org", "555-0199")


@pytest.fixture
def vera():
    """Vera, entered by two directors; her record's address is her own. Her second event has
    the contact she gave for it."""
    player = PlayerFactory(name="Vera Vale", acc_number="V-100", email="vera@example.org")
    first = EventFactory(name="Vera's first", published=True)
    second = EventFactory(name="Vera's second", published=True)
    EntryFactory(event=first, player=player)
    EntryFactory(event=second, player=player, email=CONTACT[0], phone=CONTACT[1])
    return player


def _code(message) -> str:
    return re.search(r"^\s+(\d{6})$", message.body, re.M).group(1)


def _links(player) -> set[str]:
    return set(Entry.objects.filter(player=player).values_list("report_token", flat=True))


def test_a_stranger_who_enters_a_known_player_gets_that_entry_and_nothing_more(
    vera, client, django_capture_on_commit_callbacks
):
    stranger = UserFactory()
    api = client_for(stranger)
    event = api.post("/api/v1/events/", {"name": "Mine", "preset": "grass-roots"}).json()
    entered = api.post(
        f"/api/v1/events/{event['id']}/entries/", {"name": "V", "player_id": vera.pk}
    )
    assert entered.status_code == 201, entered.json()
    own_link = entered.json()["report_token"]
    others = _links(vera) - {own_link}
    seen = [json.dumps(entered.json())]

    # Asking to link sends a code to Vera's own address; the stranger learns nothing.
    client.force_login(stranger)
    before = state()
    with django_capture_on_commit_callbacks(execute=True):
        asked = client.post(f"/r/{own_link}/", {"link": "1"}, follow=True)
    seen.append(asked.content.decode())
    assert [m.to for m in mail.outbox] == [["vera@example.org"]]
    vera.refresh_from_db()
    assert vera.user is None
    link = AccountLink.objects.get(user=stranger)
    for _ in range(5):  # guessing ends the request
        client.post(f"/me/links/{link.pk}/", {"code": "000000"})
    link.refresh_from_db()
    assert link.status == "cancelled"
    after = state()
    assert after["Player"] == before["Player"]

    # What the stranger can read: their own event's entry, list and backup, and "My games".
    seen.append(client.get("/me/").content.decode())
    seen.append(json.dumps(api.get(f"/api/v1/events/{event['id']}/entries/").json()))
    seen.append(json.dumps(api.get(f"/api/v1/events/{event['id']}/backup/?tokens=true").json()))
    seen.append(json.dumps(api.get(f"/api/v1/players/{vera.pk}/").json()))
    everything = "\n".join(seen)
    assert not [token for token in others if token in everything]
    assert CONTACT[0] not in everything and CONTACT[1] not in everything
    assert "vera@example.org" not in everything

    # A report with the links they never learnt is impossible; with theirs, it is that entry's.
    assert not Player.objects.filter(user=stranger).exists()


def test_a_stranger_proposes_a_record_change_and_nothing_moves(vera):
    stranger = UserFactory()
    api = client_for(stranger)
    event = api.post("/api/v1/events/", {"name": "Mine", "preset": "grass-roots"}).json()
    api.post(f"/api/v1/events/{event['id']}/entries/", {"name": "V", "player_id": vera.pk})
    jobs = Job.objects.count()
    before = state()
    answer = api.patch(f"/api/v1/players/{vera.pk}/", {"acc_number": "X-1", "name": "Eve"})
    assert answer.status_code == 202
    vera.refresh_from_db()
    assert (vera.acc_number, vera.name) == ("V-100", "Vera Vale")
    assert Job.objects.count() == jobs  # no other director's ledger is touched
    after = state()
    assert after["Player"] == before["Player"] and after["MrpAward"] == before["MrpAward"]
    assert RecordChange.objects.filter(status="pending").count() == 2


def test_holding_one_link_gives_that_entry_only_and_a_new_link_cuts_it_off(
    vera, client, django_capture_on_commit_callbacks
):
    from tournaments.services.links import entry_token_revoke

    entry = Entry.objects.get(player=vera, event__name="Vera's first")
    held = entry.report_token  # an opponent scanned the scorecard
    opponent = UserFactory()
    client.force_login(opponent)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/r/{held}/", {"link": "1"})
    assert client.get("/me/").content.decode().count("/r/") == 0
    entry_token_revoke(entry=entry, user=entry.event.created_by)
    entry.refresh_from_db()
    assert client.get(f"/r/{held}/").status_code == 404
    assert client_for().get(f"/api/v1/report/{held}/").status_code == 404
    me = client.get("/me/").content.decode()
    assert entry.report_token not in me and held not in me

    # Vera herself links with the code from her own mailbox and sees every current link.
    client.force_login(UserFactory(username="vera"))
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/r/{entry.report_token}/", {"link": "1"})
    link = AccountLink.objects.get(user__username="vera")
    client.post(f"/me/links/{link.pk}/", {"code": _code(mail.outbox[0])})
    mine = client.get("/me/").content.decode()
    assert all(token in mine for token in _links(vera)) and held not in mine


def test_an_opponents_wrong_link_is_undone_by_an_administrator(
    vera, client, django_capture_on_commit_callbacks
):
    from tournaments.services.account_links import account_link_approve, account_link_end

    Player.objects.filter(pk=vera.pk).update(email="")  # no address: an administrator decides
    entry = Entry.objects.filter(player=vera).first()
    opponent, admin = UserFactory(), UserFactory(is_staff=True)
    client.force_login(opponent)
    client.post(f"/r/{entry.report_token}/", {"link": "1"})
    link = AccountLink.objects.get(user=opponent)
    account_link_approve(link=link, user=admin)  # a mistake
    assert _links(vera) <= set(re.findall(r"/r/([\w-]+)/", client.get("/me/").content.decode()))
    admin_client = client_for(admin)
    refused = admin_client.post(f"/api/v1/account-links/{link.pk}/end/", {})
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "note"
    account_link_end(link=link, user=admin, note="The opponent, not Vera")
    assert "/r/" not in client.get("/me/").content.decode()
    rows = AccountLink.objects.filter(player=vera)
    assert [(r.status, r.decided_by, r.ended_by) for r in rows] == [("ended", admin, admin)]
    client.force_login(admin)
    history = client.get("/players/links/").content.decode()
    assert "The opponent, not Vera" in history and opponent.username in history


def test_sanctioning_is_not_a_directors_setting(client):
    director = UserFactory()
    api = client_for(director)
    refused = api.post(
        "/api/v1/events/", {"name": "Big Main", "preset": "acc-main", "sanctioned": True}
    )
    assert refused.status_code == 400 and refused.json()["errors"][0]["field"] == "sanctioned"
    assert not Event.objects.filter(name="Big Main").exists()
    made = api.post("/api/v1/events/", {"name": "Big Main", "preset": "acc-main"}).json()
    assert made["sanctioned"] is False
    before = state()
    patched = api.patch(f"/api/v1/events/{made['id']}/", {"sanctioned": True, "name": "Bigger"})
    assert patched.status_code == 400
    assert state() == before
    asked = api.post(f"/api/v1/events/{made['id']}/sanctioning/request/")
    assert asked.json()["state"] == "requested" and asked.json()["sanctioned"] is False
    assert api.post(f"/api/v1/events/{made['id']}/sanctioning/grant/").status_code == 403
    assert not MrpAward.objects.exists()


def test_many_strangers_cannot_flood_a_players_mailbox_with_codes_or_guess_one(
    vera, client, django_capture_on_commit_callbacks
):
    """Sign-up is open: each new account may enter Vera in an event of its own, hold that
    entry's link and ask to link, and each ask used to e-mail Vera a fresh code (five guesses
    each). Past a few codes a day to one player, a request waits for an administrator."""
    from tournaments.services.account_links import MAX_CODES_TO_PLAYER_A_DAY

    asked = []
    for n in range(MAX_CODES_TO_PLAYER_A_DAY + 2):
        stranger = UserFactory()
        event = client_for(stranger).post(
            "/api/v1/events/", {"name": f"Mine {n}", "preset": "grass-roots"}
        )
        entered = client_for(stranger).post(
            f"/api/v1/events/{event.json()['id']}/entries/", {"name": "V", "player_id": vera.pk}
        )
        client.force_login(stranger)
        with django_capture_on_commit_callbacks(execute=True):
            page = client.post(f"/r/{entered.json()['report_token']}/", {"link": "1"}, follow=True)
        asked.append((AccountLink.objects.get(user=stranger), page.content.decode()))
    codes = [m for m in mail.outbox if m.to == ["vera@example.org"]]
    assert len(codes) == MAX_CODES_TO_PLAYER_A_DAY
    late = [link for link, _ in asked[MAX_CODES_TO_PLAYER_A_DAY:]]
    assert {link.method for link in late} == {"administrator"}
    assert all("as many codes today" in page for _, page in asked[MAX_CODES_TO_PLAYER_A_DAY:])
    vera.refresh_from_db()
    assert vera.user is None


def test_a_role_given_without_asking_does_not_give_away_the_accounts_address():
    """Any account may make an event and give a role in it to anyone with an account, found by
    name (no consent is asked). The event's backup names its role holders: it must not carry
    the address their account was made with."""
    vera = UserFactory(username="vvale", first_name="Vera", last_name="Vale")
    vera.email = "vera.private@example.org"
    vera.save()
    stranger = client_for(UserFactory())
    event = stranger.post("/api/v1/events/", {"name": "Mine", "preset": "grass-roots"}).json()
    given = stranger.post(
        f"/api/v1/events/{event['id']}/roles/", {"person": "Vera Vale", "role": "judge"}
    )
    assert given.status_code == 201, given.json()
    seen = json.dumps(stranger.get(f"/api/v1/events/{event['id']}/backup/").json())
    seen += json.dumps(stranger.get(f"/api/v1/events/{event['id']}/roles/").json())
    assert "vvale" in seen  # named, as a role holder is
    assert "vera.private@example.org" not in seen
