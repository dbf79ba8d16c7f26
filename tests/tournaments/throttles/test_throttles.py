"""Limits per client address (tournaments/throttles.py): anonymous API reads, and unknown
private links (signed-in accounts' reads: test_account_reads.py). Rates are set small per test
with ``override_settings``; nothing here waits for a window to pass. The counts are in the
local-memory ``throttle`` cache (emptied before each test by tests/conftest.py);
tests/tournaments/throttles/test_throttles_redis.py runs them on Redis."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.test import Client, RequestFactory, override_settings
from rest_framework.authtoken.models import Token

from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.throttles import client_address, private_link

pytestmark = pytest.mark.django_db

VENUE, OTHER = "198.51.100.7", "203.0.113.9"


def limits(anon: str = "3/min", misses: str = "3/min"):
    rates = {"anon_read": anon, "user_read": "100/min", "link_misses": misses}
    return override_settings(
        REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    )


def _from(address: str, **extra) -> Client:
    return Client(REMOTE_ADDR=address, **extra)


@pytest.fixture
def event():
    return EventFactory(published=True)


@pytest.fixture
def token(event) -> str:
    return EntryFactory(event=event).report_token


def _is_throttled(response, code: str = "throttled") -> int:
    """The seconds of the 429's Retry-After, after checking the answer is a plain 429."""
    assert response.status_code == 429, response.content[:300]
    wait = int(response.headers["Retry-After"])
    assert 0 < wait <= 60
    return wait


# Anonymous API reads


@limits(anon="3/min")
def test_anonymous_reads_past_the_rate_get_429_with_retry_after(event):
    client = _from(VENUE)
    path = f"/api/v1/events/{event.pk}/standings/"
    assert [client.get(path).status_code for _ in range(3)] == [200, 200, 200]
    response = client.get(path)
    wait = _is_throttled(response)
    assert response.json() == {
        "errors": [
            {
                "field": None,
                "code": "throttled",
                "message": f"Request was throttled. Expected available in {wait} seconds.",
            }
        ]
    }
    assert client.head(path).status_code == 429  # HEAD is a read too
    assert _from(OTHER).get(path).status_code == 200  # per address: another client is served


@limits(anon="2/min")
def test_every_anonymous_api_list_shares_the_address_count(event):
    client = _from(VENUE)
    assert client.get(f"/api/v1/events/{event.pk}/").status_code == 200
    assert client.get("/api/v1/clubs/").status_code == 200
    _is_throttled(client.get(f"/api/v1/events/{event.pk}/standings/"))


@limits(anon="1/min")
def test_signed_in_users_do_not_use_their_address_count(event):
    """They have their own limit, per account (tests/tournaments/throttles/test_account_reads.py),
    far above the address's here."""
    user = UserFactory()
    session = _from(VENUE)
    session.force_login(user)
    key = Token.objects.create(user=user).key
    by_token = _from(VENUE, HTTP_AUTHORIZATION=f"Token {key}")
    path = f"/api/v1/events/{event.pk}/standings/"
    assert {session.get(path).status_code for _ in range(5)} == {200}
    assert {by_token.get(path).status_code for _ in range(5)} == {200}
    assert _from(VENUE).get(path).status_code == 200  # and they used none of the address's


@limits(anon="1/min")
def test_private_link_holders_and_the_health_check_are_not_counted(event, token):
    client = _from(VENUE)
    assert {client.get(f"/api/v1/report/{token}/").status_code for _ in range(5)} == {200}
    assert {client.get("/api/v1/health/").status_code for _ in range(5)} == {200}
    assert client.get(f"/api/v1/events/{event.pk}/standings/").status_code == 200


@limits(anon="1/min")
def test_pages_and_anonymous_writes_are_not_counted(event, token):
    client = _from(VENUE)
    for _ in range(3):
        assert client.get(f"/events/{event.pk}/standings/").status_code == 200
        client.post(f"/api/v1/report/{token}/", {"result": "won", "margin": 5, "preview": True})
    assert client.get(f"/api/v1/events/{event.pk}/standings/").status_code == 200


# Unknown private links


@limits(misses="3/min")
def test_an_address_that_tries_unknown_links_is_blocked_on_private_link_paths(token):
    guesser = _from(VENUE)
    misses = ["/r/guess-1/", "/api/v1/report/guess-2/", "/r/guess-3/?part=live"]
    assert [guesser.get(path).status_code for path in misses] == [404, 404, 404]
    page = guesser.get(f"/r/{token}/")  # blocked: a valid link too, so nothing is learnt
    wait = _is_throttled(page)
    text = page.content.decode()
    assert f"Please wait {wait} seconds" in text and "tell the director or a judge" in text
    assert "content-security-policy" in page.headers
    assert "<style" not in text and "<script>" not in text
    api = guesser.get(f"/api/v1/report/{token}/")
    _is_throttled(api)
    assert json.loads(api.content)["errors"][0]["code"] == "throttled"
    assert guesser.post(f"/api/v1/report/{token}/", {"result": "won", "margin": 5}).status_code == (
        429
    )
    # Everything else is served, and another address is not blocked.
    assert guesser.get("/").status_code == 200
    assert _from(OTHER).get(f"/r/{token}/").status_code == 200


@limits(misses="3/min")
def test_valid_links_and_unchanged_polls_never_count(token):
    phone = _from(VENUE)
    etag = phone.get(f"/r/{token}/?part=live")["ETag"]
    for _ in range(10):
        assert phone.get(f"/r/{token}/").status_code == 200
        assert phone.get(f"/api/v1/report/{token}/").status_code == 200
        assert phone.get(f"/r/{token}/?part=live", HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert [phone.get(f"/r/typo-{n}/").status_code for n in range(2)] == [404, 404]
    assert phone.get(f"/r/{token}/").status_code == 200  # two misses: still under the limit


@limits(misses="3/min")
def test_a_phone_polling_a_dead_link_counts_once():
    phone = _from(VENUE)
    statuses = {phone.get("/r/replaced-link/?part=live").status_code for _ in range(20)}
    assert statuses == {404}
    assert phone.get("/r/another-typo/").status_code == 404


@limits(misses="2/min")
def test_wrong_check_in_codes_count_as_misses(event):
    player = UserFactory()
    client = _from(VENUE)
    client.force_login(player)
    for code in ("wrong-code-1", "wrong-code-2"):
        assert client.get(f"/events/{event.pk}/check-in/{code}/").status_code == 404
    _is_throttled(client.get(f"/events/{event.pk}/check-in/another/"))


@limits(misses="2/min")
def test_links_sent_in_a_body_count_as_misses_too(event, token):
    """Asking to link an account takes a link in the body: no way around the limit."""
    client = _from(VENUE)
    client.force_login(UserFactory())
    ask = "/api/v1/account-links/"
    for guess in ("guess-one", "guess-two"):
        assert (
            client.post(ask, {"token": guess}, content_type="application/json").status_code == 404
        )
    _is_throttled(client.post(ask, {"token": token}, content_type="application/json"))
    assert client.get(f"/r/{token}/").status_code == 429  # the same block


@limits(misses="1/min")
def test_the_check_in_desk_is_not_a_private_link():
    client = _from(VENUE)
    client.force_login(UserFactory())
    # A desk of an event that does not exist: 404 each time, never counted as a guess.
    assert {client.get("/events/999999/check-in/everyone/").status_code for _ in range(3)} == {404}


# The client address


def test_the_client_address_is_remote_addr_unless_proxies_are_trusted():
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6")
    assert client_address(request) == "10.0.0.2"  # a header the client wrote is ignored
    proxied = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9"
    )
    with override_settings(REST_FRAMEWORK={**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}):
        assert client_address(proxied) == "203.0.113.9"  # the hop our proxy added


def test_an_ipv6_client_is_its_64_network():
    one = RequestFactory().get("/", REMOTE_ADDR="2001:db8:1:2:aaaa::1")
    other = RequestFactory().get("/", REMOTE_ADDR="2001:db8:1:2:bbbb::9")
    assert client_address(one) == client_address(other) == "2001:db8:1:2::/64"


def test_private_link_paths():
    assert private_link("/r/abc/") == "abc"
    assert private_link("/r/abc/match/") == "abc"
    assert private_link("/api/v1/report/abc/") == "abc"
    assert private_link("/events/4/check-in/code/") == "code"
    assert private_link("/events/4/check-in/everyone/") is None
    assert private_link("/events/4/standings/") is None
    assert private_link("/api/v1/events/4/standings/") is None


@limits(misses="3/min")
def test_a_block_made_by_another_process_holds_here_within_a_second(token, monkeypatch):
    """An answer "not blocked" is kept in the process a moment (a venue's phones share an
    address: one cache read a second, not one per report); a block another process made is
    refused here once that moment is over, and this process's own block at once."""
    from django.core.cache import caches

    from tournaments import throttles

    now = [5000.0]
    monkeypatch.setattr(throttles.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(throttles, "_clear_until", {})
    phone = _from(VENUE)
    assert phone.get(f"/api/v1/report/{token}/").status_code == 200
    until = throttles.LinkMisses(RequestFactory().get("/", REMOTE_ADDR=VENUE)).timer() + 60
    caches[throttles.CACHE].set(f"links:{VENUE}:blocked", until, 60)  # another process's block
    assert phone.get(f"/api/v1/report/{token}/").status_code == 200  # within the moment
    now[0] += throttles.CLEAR_MEMO_SECONDS
    _is_throttled(phone.get(f"/api/v1/report/{token}/"))
    caches[throttles.CACHE].delete(f"links:{VENUE}:blocked")
