"""The limits on Redis, as production counts them (every gunicorn worker shares the counts):
the same refusals as on local memory, counts that expire with their window, and a Redis that
goes away turning the limits off, never a report (or a registration request) into a 500 or a
429."""

from __future__ import annotations

import logging
import os
import subprocess
import time
from datetime import date, timedelta

import pytest
from django.conf import settings
from django.core.cache import caches
from django.test import Client, override_settings

from tests.conftest import REDIS_URL, free_port, stop
from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.models import RegistrationRequest, Table
from tournaments.services.weekends import (
    weekend_create,
    weekend_event_add,
    weekend_registration_set,
)
from tournaments.throttles import fail_open

pytestmark = [pytest.mark.services, pytest.mark.django_db]

VENUE = "198.51.100.7"
RATES = {
    "anon_read": "2/min",
    "user_read": "2/min",
    "staff_read": "4/min",
    "link_misses": "3/min",
    "anon_write": "3/hour",
}


# The run's Redis database is shared with other tests (a Celery broker's queue among them) and
# with other test processes: these tests touch only their own keys, never the whole database.
PREFIX = f"test-throttle-{os.getpid()}"


def _on_redis(url: str):
    throttle = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": url,
        "KEY_PREFIX": PREFIX,
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
    return override_settings(
        CACHES={**settings.CACHES, "throttle": throttle},
        REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": RATES},
    )


def _forget_our_keys(cache) -> None:
    client = cache._cache.get_client(write=True)
    for key in client.scan_iter(f"{PREFIX}:*"):
        client.delete(key)


@pytest.fixture
def shared_redis():
    """The throttle cache on the test run's Redis database (PEGBOARD_TEST_REDIS_URL)."""
    with _on_redis(REDIS_URL):
        _forget_our_keys(caches["throttle"])
        yield caches["throttle"]
        _forget_our_keys(caches["throttle"])


@pytest.fixture
def own_redis():
    """A Redis server of this test's own, which the test stops."""
    import redis

    port = free_port()
    proc = subprocess.Popen(
        ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", ""]
        + ["--appendonly", "no"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 10
    while True:
        try:
            redis.Redis(port=port, socket_connect_timeout=1).ping()
            break
        except redis.ConnectionError:
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.1)
    fail_open.paused_until = 0.0
    with _on_redis(f"redis://127.0.0.1:{port}/0"):
        yield proc
    if proc.poll() is None:
        stop(proc)
    fail_open.paused_until = 0.0


def test_anonymous_reads_are_counted_across_processes_in_redis(shared_redis):
    event = EventFactory(published=True)
    path = f"/api/v1/events/{event.pk}/standings/"
    assert [Client(REMOTE_ADDR=VENUE).get(path).status_code for _ in range(2)] == [200, 200]
    # A new client object stands for another gunicorn worker: the count is Redis's.
    refused = Client(REMOTE_ADDR=VENUE).get(path)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0


def test_an_accounts_reads_are_counted_across_processes_in_redis(shared_redis):
    event = EventFactory(published=True)
    path = f"/api/v1/events/{event.pk}/standings/"
    reader = UserFactory()

    def worker(address: str = VENUE) -> Client:  # a new client: another gunicorn worker
        client = Client(REMOTE_ADDR=address)
        client.force_login(reader)
        return client

    assert [worker().get(path).status_code for _ in range(2)] == [200, 200]
    refused = worker("203.0.113.9").get(path)  # the account, from anywhere
    assert refused.status_code == 429 and 55 <= int(refused.headers["Retry-After"]) <= 60
    assert refused.json()["errors"][0]["code"] == "throttled"
    # Counted per user id, and gone with the period: nothing stays in Redis for good.
    client = shared_redis._cache.get_client(write=False)
    (key,) = [k for k in client.keys(f"{PREFIX}:*") if b"user_read" in k]
    assert key.endswith(f"_{reader.pk}".encode()) and 0 < client.ttl(key) <= 60


def test_unknown_links_block_the_address_for_the_window_in_redis(shared_redis):
    token = EntryFactory(event=EventFactory(published=True)).report_token
    guesser = Client(REMOTE_ADDR=VENUE)
    assert {guesser.get("/r/same-dead-link/?part=live").status_code for _ in range(5)} == {404}
    assert [guesser.get(f"/r/guess-{n}/").status_code for n in range(2)] == [404, 404]
    refused = guesser.get(f"/api/v1/report/{token}/")
    assert refused.status_code == 429
    assert 55 <= int(refused.headers["Retry-After"]) <= 60
    # Every count and the block end with their window: nothing stays in Redis for good.
    client = shared_redis._cache.get_client(write=False)
    keys = client.keys(f"{PREFIX}:*")
    assert len(keys) == 5  # three links seen, the count, the block
    assert all(0 < client.ttl(key) <= 60 for key in keys)


def test_with_redis_gone_the_limits_fail_open(own_redis, event_in_play, caplog):
    event = event_in_play(10, published=True)
    seat = Table.objects.get(game__event=event, game__number=1, number=1).seats.first()
    client = Client(REMOTE_ADDR=VENUE)
    path = f"/api/v1/events/{event.pk}/standings/"
    assert [client.get(path).status_code for _ in range(2)] == [200, 200]  # the whole rate
    reader = Client(REMOTE_ADDR=VENUE)
    reader.force_login(UserFactory())
    stop(own_redis)

    with caplog.at_level(logging.WARNING, logger="tournaments.throttles"):
        assert client.get(path).status_code == 200  # not counted: served, not refused
        assert {reader.get(path).status_code for _ in range(4)} == {200}  # an account too
        assert [client.get(f"/r/guess-{n}/").status_code for n in range(5)] == [404] * 5
        report = client.post(
            f"/api/v1/report/{seat.entry.report_token}/",
            {"result": "won", "margin": 12},
            content_type="application/json",
        )
    assert report.status_code == 201, report.content
    warnings = [r for r in caplog.records if "throttle cache unreachable" in r.getMessage()]
    assert len(warnings) == 1  # once per pause, not once per request


def _open_weekend():
    director = UserFactory()
    weekend = weekend_create(
        user=director, name="Fall Classic", starts_on=date.today() + timedelta(days=30)
    )
    event = EventFactory(director=director, name="Fall Main")
    weekend_event_add(weekend=weekend, event=event, user=director)
    weekend_registration_set(weekend=weekend, user=director, open=True)
    return weekend, event


def test_registration_requests_from_one_address_are_counted_in_redis(shared_redis):
    weekend, event = _open_weekend()
    page = f"/weekends/{weekend.pk}/register/"
    # A refused form is not a request taken: mistyping it never uses up the address's rate.
    for _ in range(4):
        assert Client(REMOTE_ADDR=VENUE).post(page, {"name": "Ann"}).status_code == 400
    sent = Client(REMOTE_ADDR=VENUE).post(page, {"name": "Ann", "events": [event.pk]})
    assert sent.status_code == 302
    # The private page's change and the API count with the page: one limit per address.
    change = Client(REMOTE_ADDR=VENUE).post(
        f"{sent['Location']}change/", {"name": "Ann B", "events": [event.pk]}
    )
    assert change.status_code == 302
    api = Client(REMOTE_ADDR=VENUE).post(
        f"/api/v1/weekends/{weekend.pk}/registrations/",
        {"name": "Bo", "events": [event.pk]},
        content_type="application/json",
    )
    assert api.status_code == 201
    # A new client object stands for another gunicorn worker: the count is Redis's.
    refused = Client(REMOTE_ADDR=VENUE).post(page, {"name": "Cy", "events": [event.pk]})
    assert refused.status_code == 429
    wait = int(refused.headers["Retry-After"])
    assert 3500 < wait <= 3600
    html = refused.content.decode()
    assert f"Please wait {-(-wait // 60)} minutes" in html and "Back button" in html
    refused_api = Client(REMOTE_ADDR=VENUE).post(
        f"/api/v1/weekends/{weekend.pk}/registrations/",
        {"name": "Cy", "events": [event.pk]},
        content_type="application/json",
    )
    assert refused_api.status_code == 429
    assert refused_api.json()["errors"][0]["code"] == "throttled"
    other = Client(REMOTE_ADDR="203.0.113.9").post(page, {"name": "Di", "events": [event.pk]})
    assert other.status_code == 302  # another address has its own count
    names = sorted(RegistrationRequest.objects.values_list("name", flat=True))
    assert names == ["Ann B", "Bo", "Di"]
    # Reads are not writes: the page and the player's own page still open.
    assert Client(REMOTE_ADDR=VENUE).get(page).status_code == 200
    assert Client(REMOTE_ADDR=VENUE).get(sent["Location"]).status_code == 200
    client = shared_redis._cache.get_client(write=False)
    keys = [k for k in client.keys(f"{PREFIX}:*") if b"anon_write" in k]
    assert len(keys) == 2 and all(0 < client.ttl(key) <= 3600 for key in keys)


def test_with_redis_gone_a_registration_request_is_still_taken(own_redis):
    weekend, event = _open_weekend()
    stop(own_redis)
    page = f"/weekends/{weekend.pk}/register/"
    answers = [
        Client(REMOTE_ADDR=VENUE).post(page, {"name": f"P{n}", "events": [event.pk]}).status_code
        for n in range(5)
    ]
    assert answers == [302] * 5  # past the rate of 3, but uncounted: taken, never a 500
    assert RegistrationRequest.objects.count() == 5
