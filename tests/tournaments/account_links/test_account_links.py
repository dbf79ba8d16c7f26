"""Linking an account to a player: only with a code sent to the e-mail address on the player's
record, or an administrator; never by holding a private link."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tests.helpers import client_for
from tournaments.errors import ServiceError
from tournaments.models import AccountLink, Player
from tournaments.services.account_links import (
    MAX_ASKED_A_DAY,
    MAX_WRONG,
    account_link_approve,
    account_link_confirm,
    account_link_decline,
    account_link_end,
    account_link_request,
)
from tournaments.services.links import entry_token_revoke

pytestmark = pytest.mark.django_db


@pytest.fixture
def entry():
    director = UserFactory()
    event = EventFactory(director=director)
    event.director = director
    player = PlayerFactory(name="Ann Able", email="ann@example.org")
    return EntryFactory(event=event, player=player)


def _ask(entry, user, capture):
    with capture(execute=True):
        return account_link_request(entry=entry, user=user)


def _code_in(message) -> str:
    return re.search(r"^\s+(\d{6})$", message.body, re.M).group(1)


def test_a_code_goes_to_the_record_address_and_links_the_account(
    entry, django_capture_on_commit_callbacks
):
    user = UserFactory()
    link = _ask(entry, user, django_capture_on_commit_callbacks)
    assert link.method == AccountLink.Method.EMAIL_CODE and link.sent_to == "a•••@e•••.org"
    entry.player.refresh_from_db()
    assert entry.player.user is None  # asking links nothing
    (message,) = mail.outbox
    assert message.to == ["ann@example.org"] and user.username in message.body
    code = _code_in(message)
    link.refresh_from_db()
    assert code not in link.code_hash and link.code_hash  # only its hash is kept
    account_link_confirm(link=link, user=user, code=code)
    entry.player.refresh_from_db()
    link.refresh_from_db()
    assert entry.player.user == user and link.status == AccountLink.Status.CONFIRMED


def test_the_entry_address_given_by_a_director_never_receives_the_code(
    entry, django_capture_on_commit_callbacks
):
    """A stranger entering the player in their own event with their own address learns no
    code: the code goes to the record's address, not the entry's."""
    stranger_event = EventFactory()
    theirs = EntryFactory(event=stranger_event, player=entry.player, email="evil@example.org")
    _ask(theirs, UserFactory(), django_capture_on_commit_callbacks)
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]


def test_wrong_codes_are_counted_and_end_the_request(entry, django_capture_on_commit_callbacks):
    user = UserFactory()
    link = _ask(entry, user, django_capture_on_commit_callbacks)
    right = _code_in(mail.outbox[0])
    wrong = "000000" if right != "000000" else "111111"
    for left in range(MAX_WRONG - 1, 0, -1):
        with pytest.raises(ServiceError, match=f"{left} tr"):
            account_link_confirm(link=link, user=user, code=wrong)
    account_link_confirm(link=link, user=user, code=wrong)
    link.refresh_from_db()
    assert link.status == AccountLink.Status.CANCELLED
    with pytest.raises(ServiceError, match="no longer waiting"):
        account_link_confirm(link=link, user=user, code=right)
    entry.player.refresh_from_db()
    assert entry.player.user is None


def test_an_expired_code_links_nothing(entry, django_capture_on_commit_callbacks):
    user = UserFactory()
    link = _ask(entry, user, django_capture_on_commit_callbacks)
    code = _code_in(mail.outbox[0])
    AccountLink.objects.filter(pk=link.pk).update(expires_at=timezone.now() - timedelta(1))
    account_link_confirm(link=link, user=user, code=code)
    link.refresh_from_db()
    entry.player.refresh_from_db()
    assert link.status == AccountLink.Status.CANCELLED and entry.player.user is None


def test_asking_again_and_again_is_limited(entry, django_capture_on_commit_callbacks):
    user = UserFactory()
    for _ in range(MAX_ASKED_A_DAY):
        link = _ask(entry, user, django_capture_on_commit_callbacks)
        AccountLink.objects.filter(pk=link.pk).update(status="cancelled")
    with pytest.raises(ServiceError, match="times today"):
        _ask(entry, user, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == MAX_ASKED_A_DAY


def test_no_address_on_the_record_waits_for_an_administrator(
    django_capture_on_commit_callbacks,
):
    entry = EntryFactory(player=PlayerFactory(email=""))
    user, admin = UserFactory(), UserFactory(is_staff=True)
    link = _ask(entry, user, django_capture_on_commit_callbacks)
    assert link.method == AccountLink.Method.ADMINISTRATOR and not mail.outbox
    with pytest.raises(ServiceError, match="administrator"):
        account_link_approve(link=link, user=entry.event.created_by)
    with pytest.raises(ServiceError, match="Say why"):
        account_link_decline(link=link, user=admin, note=" ")
    account_link_approve(link=link, user=admin)
    entry.player.refresh_from_db()
    assert entry.player.user == user


def test_an_administrator_unlinks_a_wrong_link_and_the_history_keeps_both(
    entry, django_capture_on_commit_callbacks
):
    wrong, right, admin = UserFactory(), UserFactory(), UserFactory(is_staff=True)
    link = _ask(entry, wrong, django_capture_on_commit_callbacks)
    account_link_confirm(link=link, user=wrong, code=_code_in(mail.outbox[0]))
    with pytest.raises(ServiceError, match="linked to another account"):
        _ask(entry, right, django_capture_on_commit_callbacks)
    with pytest.raises(ServiceError, match="Only an administrator"):
        account_link_end(link=link, user=right, note="mine")
    account_link_end(link=link, user=admin, note="Not Ann: a neighbour at the table")
    entry.player.refresh_from_db()
    assert entry.player.user is None
    second = _ask(entry, right, django_capture_on_commit_callbacks)
    account_link_confirm(link=second, user=right, code=_code_in(mail.outbox[-1]))
    history = list(AccountLink.objects.filter(player=entry.player).order_by("pk"))
    assert [(h.user, h.status) for h in history] == [(wrong, "ended"), (right, "confirmed")]
    assert history[0].ended_by == admin and "neighbour" in history[0].note


def test_a_person_unlinks_their_own_account(entry, django_capture_on_commit_callbacks, client):
    user = UserFactory()
    link = _ask(entry, user, django_capture_on_commit_callbacks)
    account_link_confirm(link=link, user=user, code=_code_in(mail.outbox[0]))
    client.force_login(user)
    asked = client.post(f"/me/links/{link.pk}/unlink/")
    assert asked.status_code == 200 and "Yes, unlink my account" in asked.content.decode()
    entry.player.refresh_from_db()
    assert entry.player.user == user  # not before the second step
    client.post(f"/me/links/{link.pk}/unlink/", {"confirm": "yes"})
    entry.player.refresh_from_db()
    assert entry.player.user is None
    assert entry.event.name not in client.get("/me/").content.decode()


def test_the_pages_from_the_link_to_a_linked_account(
    entry, client, django_capture_on_commit_callbacks
):
    entry.event.published = True
    entry.event.save()
    user = UserFactory()
    client.force_login(user)
    opened = client.get(f"/r/{entry.report_token}/").content.decode()
    assert "Yes, this is me" in opened and "e-mail a code" in opened
    with django_capture_on_commit_callbacks(execute=True):
        asked = client.post(f"/r/{entry.report_token}/", {"link": "1"}, follow=True)
    page = asked.content.decode()
    assert "a•••@e•••.org" in page and "Link my account" in page
    entry.player.refresh_from_db()
    assert entry.player.user is None
    assert entry.event.name not in client.get("/me/").content.decode()
    link = AccountLink.objects.get()
    wrong = client.post(f"/me/links/{link.pk}/", {"code": "12"})
    assert wrong.status_code == 400 and "not the code we sent" in wrong.content.decode()
    code = _code_in(mail.outbox[0])
    done = client.post(f"/me/links/{link.pk}/", {"code": code}, follow=True).content.decode()
    assert "Your account is now linked to Ann Able" in done and entry.event.name in done


def test_another_persons_request_is_not_found(entry, django_capture_on_commit_callbacks, client):
    link = _ask(entry, UserFactory(), django_capture_on_commit_callbacks)
    client.force_login(UserFactory())
    assert client.get(f"/me/links/{link.pk}/").status_code == 404
    assert client.post(f"/me/links/{link.pk}/", {"code": "123456"}).status_code == 404
    api = client_for(UserFactory())
    assert api.post(f"/api/v1/account-links/{link.pk}/confirm/", {"code": "1"}).status_code == 404


def test_the_api_asks_and_confirms(entry, django_capture_on_commit_callbacks):
    user = UserFactory()
    api = client_for(user)
    with django_capture_on_commit_callbacks(execute=True):
        asked = api.post("/api/v1/account-links/", {"token": entry.report_token})
    assert asked.status_code == 201, asked.json()
    body = asked.json()
    assert body["status"] == "pending" and body["sent_to"] == "a•••@e•••.org"
    assert api.post("/api/v1/account-links/", {"token": "nope"}).status_code == 404
    unknown = api.post("/api/v1/account-links/", {"token": entry.report_token, "player": 1})
    assert unknown.status_code == 400 and unknown.json()["errors"][0]["field"] == "player"
    code = _code_in(mail.outbox[0])
    done = api.post(f"/api/v1/account-links/{body['id']}/confirm/", {"code": code})
    assert done.status_code == 200 and done.json()["status"] == "confirmed"
    assert Player.objects.get(user=user) == entry.player


def test_a_replaced_link_asks_nothing_more(entry, client):
    """Whoever held the old link can no longer ask with it; nothing else was ever theirs."""
    old = entry.report_token
    entry_token_revoke(entry=entry, user=entry.event.director)
    client.force_login(UserFactory())
    assert client.post(f"/r/{old}/", {"link": "1"}).status_code == 404
    assert not AccountLink.objects.exists()


def test_a_link_with_characters_a_link_never_has_is_a_400(entry):
    api = client_for(UserFactory())
    for token in ("a\x00b", "a b", "é", "x" * 65):
        answer = api.post("/api/v1/account-links/", {"token": token})
        assert answer.status_code == 400 and answer.json()["errors"][0]["field"] == "token"
    assert not AccountLink.objects.exists()
