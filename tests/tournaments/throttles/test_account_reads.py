"""The limit on signed-in accounts' API reads (tournaments/throttles.py, ``AccountReadThrottle``):
per account, wherever it connects from; staff at their own, higher rate; the private-link
views, the health check and writes never counted. Rates are set small per test with
``override_settings``; the period's end is a moved clock, not a wait. The counts are in the
local-memory ``throttle`` cache (emptied before each test by tests/conftest.py);
tests/tournaments/throttles/test_throttles_redis.py counts them on Redis."""

from __future__ import annotations

from datetime import date

import pytest
from django.conf import settings
from django.test import Client, override_settings
from rest_framework.authtoken.models import Token

from tests.factories import EntryFactory, EventFactory, UserFactory
from tournaments.services.registrations import registration_request_create
from tournaments.services.weekends import (
    weekend_create,
    weekend_event_add,
    weekend_registration_set,
)
from tournaments.throttles import AccountReadThrottle

pytestmark = pytest.mark.django_db

VENUE, OTHER = "198.51.100.7", "203.0.113.9"


def limits(user: str = "3/min", staff: str = "5/min", anon: str = "3/min"):
    rates = {"anon_read": anon, "user_read": user, "staff_read": staff, "link_misses": "3/min"}
    return override_settings(
        REST_FRAMEWORK={**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    )


def _signed_in(user, address: str = VENUE) -> Client:
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


def _by_token(user, address: str = VENUE) -> Client:
    key = Token.objects.get_or_create(user=user)[0].key
    return Client(REMOTE_ADDR=address, HTTP_AUTHORIZATION=f"Token {key}")


def _refused(response) -> int:
    """The seconds of a 429's Retry-After, after checking its body is the API's error."""
    assert response.status_code == 429, response.content[:300]
    wait = int(response.headers["Retry-After"])
    assert 0 < wait <= 60
    assert response.json() == {
        "errors": [
            {
                "field": None,
                "code": "throttled",
                "message": f"Request was throttled. Expected available in {wait} seconds.",
            }
        ]
    }
    return wait


@pytest.fixture
def event():
    return EventFactory(published=True)


@limits(user="3/min")
def test_an_account_past_its_rate_gets_429_and_others_are_served(event):
    reader = UserFactory()
    path = f"/api/v1/events/{event.pk}/standings/"
    session = _signed_in(reader)
    assert [session.get(path).status_code for _ in range(2)] == [200, 200]
    # The account is counted, not the connection: its token from elsewhere shares the count.
    assert _by_token(reader, OTHER).get("/api/v1/clubs/").status_code == 200
    _refused(session.get(path))
    _refused(_by_token(reader, OTHER).get(path))
    assert session.head(path).status_code == 429  # HEAD is a read too
    # Another account at the same address, and anonymous readers there, have their own counts.
    assert {_signed_in(UserFactory()).get(path).status_code for _ in range(3)} == {200}
    assert {Client(REMOTE_ADDR=VENUE).get(path).status_code for _ in range(3)} == {200}
    _refused(Client(REMOTE_ADDR=VENUE).get(path))  # the address's own, anonymous limit


@limits(user="2/min", staff="4/min")
@pytest.mark.parametrize("kind", ["staff", "superuser"])
def test_staff_read_at_their_own_higher_rate(event, kind):
    office = UserFactory(is_staff=True) if kind == "staff" else UserFactory(is_superuser=True)
    path = f"/api/v1/events/{event.pk}/standings/"
    client = _by_token(office)
    assert [client.get(path).status_code for _ in range(4)] == [200] * 4
    _refused(client.get(path))  # higher, but still a limit: a stolen staff token is bounded


def _open_weekend(director):
    weekend = weekend_create(user=director, name="Fall Classic", starts_on=date(2027, 10, 2))
    event = EventFactory(director=director, name="Fall Main")
    weekend_event_add(weekend=weekend, event=event, user=director)
    weekend_registration_set(weekend=weekend, user=director, open=True)
    return weekend, event


@limits(user="1/min")
def test_private_links_the_health_check_and_writes_are_never_counted(event):
    player = UserFactory()
    token = EntryFactory(event=event).report_token
    weekend, main = _open_weekend(UserFactory())
    request = registration_request_create(weekend=weekend, name="Ann", event_ids=[main.pk])
    client = _signed_in(player)
    private = f"/api/v1/registrations/private/{request.token}/"
    assert {client.get(private).status_code for _ in range(4)} == {200}  # signed in, by link
    assert {client.get(f"/api/v1/report/{token}/").status_code for _ in range(4)} == {200}
    assert {client.get("/api/v1/health/").status_code for _ in range(4)} == {200}
    for _ in range(3):  # writes, taken or refused, are not reads
        answer = client.post("/api/v1/events/", {}, content_type="application/json")
        assert answer.status_code == 400, answer.content[:300]
        assert client.delete("/api/v1/auth/token/").status_code != 429
    assert client.get(f"/api/v1/events/{event.pk}/").status_code == 200  # the one read
    _refused(client.get(f"/api/v1/events/{event.pk}/"))


@limits(user="2/min")
def test_the_count_ends_with_its_period(event, monkeypatch):
    now = [1_000_000.0]
    monkeypatch.setattr(AccountReadThrottle, "timer", staticmethod(lambda: now[0]))
    client = _by_token(UserFactory())
    path = f"/api/v1/events/{event.pk}/"
    assert client.get(path).status_code == 200
    now[0] += 20
    assert client.get(path).status_code == 200
    assert _refused(client.get(path)) == 40  # says when: the first read leaves the window
    now[0] += 40
    assert client.get(path).status_code == 200
    assert _refused(client.get(path)) == 20  # the second read is still in the window
    now[0] += 60
    assert [client.get(path).status_code for _ in range(2)] == [200, 200]


@limits(user="1/min")
def test_a_directors_registration_list_is_an_account_read():
    owner = UserFactory()
    weekend, _ = _open_weekend(owner)
    director = _by_token(owner)
    path = f"/api/v1/weekends/{weekend.pk}/registrations/"
    assert director.get(path).status_code == 200
    _refused(director.get(path))
