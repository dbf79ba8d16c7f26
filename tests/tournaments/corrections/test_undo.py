"""Undo and confirmation: withdraw, a new link, closing a game and re-pairing ask first (a page
of its own); a withdrawal can be undone with the player's history kept; re-entering a
withdrawn player restores their entry; a new link can be undone for ten minutes while unused."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tests.helpers import client_for
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Entry, Game, Table
from tournaments.services.entries import Registration, entry_register
from tournaments.services.links import entry_token_restore, entry_token_revoke
from tournaments.services.pairings import game_pairings_request, game_publish
from tournaments.services.results import game_close
from tournaments.services.withdrawals import entry_rejoin, entry_withdraw

pytestmark = pytest.mark.django_db


def _next_game(event, number, capture):
    game_close(game=Game.objects.get(event=event, number=number - 1), user=event.director)
    with capture(execute=True):
        game_pairings_request(event=event, number=number, user=event.director)
    return game_publish(game=Game.objects.get(event=event, number=number), user=event.director)


def _seated(event, number):
    return set(
        Game.objects.get(event=event, number=number).seats.values_list("entry_id", flat=True)
    )


def test_a_withdrawal_undone_before_the_next_pairing_misses_nothing(
    event_in_play, django_capture_on_commit_callbacks
):
    event = event_in_play(10, qualifying_games=4)
    leaver = Entry.objects.filter(event=event).first()
    entry_withdraw(entry=leaver, user=event.director)
    entry_rejoin(entry=leaver, user=event.director)
    leaver.refresh_from_db()
    assert (leaver.status, leaver.withdrawn_after_game, leaver.missed_games) == (
        "checked_in", None, [],
    )  # fmt: skip
    _next_game(event, 2, django_capture_on_commit_callbacks)
    assert leaver.pk in _seated(event, 2)


def test_a_player_who_rejoins_plays_on_with_their_history(
    event_in_play, django_capture_on_commit_callbacks
):
    event = event_in_play(10, qualifying_games=4)
    leaver = Entry.objects.filter(event=event).first()
    entry_withdraw(entry=leaver, user=event.director)
    _next_game(event, 2, django_capture_on_commit_callbacks)
    assert leaver.pk not in _seated(event, 2)
    entry_rejoin(entry=leaver, user=event.director)
    leaver.refresh_from_db()
    assert leaver.missed_games == [2] and leaver.plays_in(1) and not leaver.plays_in(2)
    _next_game(event, 3, django_capture_on_commit_callbacks)
    assert leaver.pk in _seated(event, 3)
    assert leaver.seats.count() == 2  # games 1 and 3: one entry, one history
    row = AuditEntry.objects.get(action="entry_rejoin")
    assert row.before["status"] == "withdrawn" and row.after["missed_games"] == [2]


def test_a_rejoined_player_enters_a_re_paired_draft(
    event_in_play, django_capture_on_commit_callbacks
):
    from tournaments.services.pairings import game_repair

    event = event_in_play(10, qualifying_games=4)
    leaver = Entry.objects.filter(event=event).first()
    entry_withdraw(entry=leaver, user=event.director)
    game_close(game=Game.objects.get(event=event, number=1), user=event.director)
    with django_capture_on_commit_callbacks(execute=True):
        game_pairings_request(event=event, number=2, user=event.director)
    entry_rejoin(entry=leaver, user=event.director)
    assert leaver.pk not in _seated(event, 2)  # the draft was paired without them
    with django_capture_on_commit_callbacks(execute=True):
        game_repair(game=Game.objects.get(event=event, number=2), user=event.director)
    assert leaver.pk in _seated(event, 2)


@pytest.mark.parametrize("acc_number", ["", "ACC-77"])
def test_entering_a_withdrawn_player_again_restores_the_entry(event_in_play, acc_number):
    event = event_in_play(10, qualifying_games=4)
    player = PlayerFactory(name="Wanda Walker", acc_number=acc_number)
    entry = EntryFactory(event=event, player=player)
    entry_withdraw(entry=entry, user=event.director)
    again = entry_register(
        event=event,
        registration=Registration(name="wanda walker", acc_number=acc_number),
        user=event.director,
    )
    assert again.pk == entry.pk and again.restored
    assert Entry.objects.filter(event=event, player__name__iexact="Wanda Walker").count() == 1
    assert again.status == "checked_in"


def test_withdraw_close_and_re_pair_ask_on_a_page_of_their_own(client, event_in_play):
    event = event_in_play(10)
    client.force_login(event.director)
    entry = Entry.objects.filter(event=event).first()
    asks = {
        f"/entries/{entry.pk}/withdraw/": "Yes, withdraw",
        f"/entries/{entry.pk}/new-link/": "Yes, make a new link",
        f"/events/{event.pk}/games/1/close/": "Yes, close game 1",
        f"/events/{event.pk}/games/1/repair/": "Yes, re-pair game 1",
    }
    token = entry.report_token
    for url, button in asks.items():
        for page in (client.get(url), client.post(url)):  # neither acts without the second step
            html = page.content.decode()
            assert page.status_code == 200 and button in html and "No, go back" in html
    entry.refresh_from_db()
    game = Game.objects.get(event=event, number=1)
    assert (entry.status, entry.report_token, game.status) == ("checked_in", token, "published")
    assert (
        not AuditEntry.objects.exclude(action="event_create")
        .exclude(action__in=["event_close_registration", "game_pairings_request", "game_publish"])
        .exists()
    )
    client.post(f"/events/{event.pk}/games/1/close/", {"confirm": "yes"})
    assert Game.objects.get(pk=game.pk).status == "closed"


class TestNewLinkUndo:
    def test_the_old_card_works_again(self, client, event_in_play):
        event = event_in_play(10)
        entry = Entry.objects.filter(event=event).first()
        old = entry.report_token
        entry_token_revoke(entry=entry, user=event.director)
        assert client.get(f"/r/{old}/").status_code == 404
        entry_token_restore(entry=entry, user=event.director)
        entry.refresh_from_db()
        assert entry.report_token == old
        assert client.get(f"/r/{old}/").status_code == 200

    def test_not_once_the_new_link_is_used(self, client, event_in_play):
        event = event_in_play(10)
        entry = Entry.objects.filter(event=event).first()
        entry = entry_token_revoke(entry=entry, user=event.director)
        assert client.get(f"/r/{entry.report_token}/").status_code == 200
        with pytest.raises(ServiceError, match="already been used"):
            entry_token_restore(entry=entry, user=event.director)

    def test_not_after_ten_minutes(self, event_in_play):
        event = event_in_play(10)
        entry = Entry.objects.filter(event=event).first()
        entry_token_revoke(entry=entry, user=event.director)
        made = timezone.now() - timedelta(minutes=10, seconds=1)
        Entry.objects.filter(pk=entry.pk).update(token_replaced_at=made)
        with pytest.raises(ServiceError, match="10 minutes"):
            entry_token_restore(entry=entry, user=event.director)

    def test_by_api(self, event_in_play):
        event = event_in_play(10)
        entry = Entry.objects.filter(event=event).first()
        old = entry.report_token
        api = client_for(event.director)
        fresh = api.post(f"/api/v1/entries/{entry.pk}/new-link/").json()["report_token"]
        assert fresh != old
        back = api.post(f"/api/v1/entries/{entry.pk}/new-link/undo/")
        assert back.status_code == 200 and back.json()["report_token"] == old
        again = api.post(f"/api/v1/entries/{entry.pk}/new-link/undo/")
        assert again.status_code == 400 and again.json()["errors"][0]["code"] == "cannot_undo"


def test_withdraw_and_rejoin_by_api(event_in_play):
    event = event_in_play(10)
    entry = Entry.objects.filter(event=event).first()
    api = client_for(event.director)
    assert api.post(f"/api/v1/entries/{entry.pk}/withdraw/").json()["status"] == "withdrawn"
    back = api.post(f"/api/v1/entries/{entry.pk}/rejoin/")
    assert back.status_code == 200 and back.json()["status"] == "checked_in"
    stranger = UserFactory()
    EventFactory(director=stranger)
    assert client_for(stranger).post(f"/api/v1/entries/{entry.pk}/rejoin/").status_code == 403
    assert Table.objects.filter(game__event=event).exists()
