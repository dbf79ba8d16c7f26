"""API tokens end: ``API_TOKEN_HOURS`` after they were issued (401, saying where to get a new
one), when their owner revokes them (``DELETE /api/v1/auth/token/``), and when wrong passwords
pause their user name (django-axes)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery"  # the factory's
URL = "/api/v1/auth/token/"


@pytest.fixture(autouse=True)
def lifetime(settings):
    settings.API_TOKEN_HOURS = 24


@pytest.fixture
def director():
    return UserFactory(username="director")


def _issue(username="director", password=PASSWORD, **headers):
    return APIClient().post(URL, {"username": username, "password": password}, **headers)


def _use(key: str):
    return APIClient().get("/api/v1/events/", HTTP_AUTHORIZATION=f"Token {key}")


def _age(key: str, hours: float) -> None:
    Token.objects.filter(key=key).update(created=timezone.now() - timedelta(hours=hours))


def _refusal(response, code: str) -> str:
    assert response.status_code == 401, response.content
    assert response["WWW-Authenticate"] == "Token"
    (error,) = response.json()["errors"]
    assert error["field"] is None and error["code"] == code
    assert "POST your username and password to /api/v1/auth/token/" in error["message"]
    return error["message"]


def test_a_token_says_when_it_expires_and_works_until_then(director):
    answer = _issue()
    assert answer.status_code == 200
    key = answer.json()["token"]
    created = Token.objects.get(key=key).created
    expires = answer.json()["expires"].replace("Z", "+00:00")
    assert timezone.datetime.fromisoformat(expires) == created + timedelta(hours=24)
    _age(key, 23.9)
    assert _use(key).status_code == 200
    assert _issue().json()["token"] == key  # still good: the same token


def test_an_expired_token_is_refused_with_the_way_to_a_new_one(director):
    key = _issue().json()["token"]
    _age(key, 24)
    message = _refusal(_use(key), "token_expired")
    assert "tokens last 24 hours" in message


def test_asking_again_after_expiry_gives_a_fresh_token(director):
    old = _issue().json()["token"]
    _age(old, 25)
    # The expired token still in the client's header does not stand in the way.
    answer = _issue(HTTP_AUTHORIZATION=f"Token {old}")
    assert answer.status_code == 200
    new = answer.json()["token"]
    assert new != old
    assert _use(new).status_code == 200
    _refusal(_use(old), "token_invalid")


def test_delete_revokes_the_callers_token(director):
    key = _issue().json()["token"]
    other = _issue(UserFactory(username="other").username).json()["token"]
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.delete(URL).status_code == 204
    _refusal(_use(key), "token_invalid")
    assert _use(other).status_code == 200  # nobody else's
    fresh = _issue().json()["token"]
    assert fresh != key and _use(fresh).status_code == 200


def test_a_signed_in_user_revokes_their_token_from_the_site(director):
    key = _issue().json()["token"]
    client = Client()
    client.force_login(director)
    assert client.delete(URL).status_code == 204
    _refusal(_use(key), "token_invalid")


def test_delete_without_signing_in_is_refused_and_changes_nothing(director):
    key = _issue().json()["token"]
    refused = APIClient().delete(URL)
    assert refused.status_code == 401 and refused.json()["errors"][0]["code"] == "not_authenticated"
    assert APIClient().delete(URL, HTTP_AUTHORIZATION="Token 0000").status_code == 401
    assert _use(key).status_code == 200


@pytest.mark.parametrize("where", ["api", "page"])
def test_a_pause_for_wrong_passwords_revokes_that_users_token(director, where):
    key = _issue().json()["token"]
    bystander = _issue(UserFactory(username="bystander").username).json()["token"]
    for n in range(5):
        if where == "api":
            _issue(password=f"guess-{n}")
        else:
            Client().post("/accounts/login/", {"username": "director", "password": f"guess-{n}"})
    assert _issue().status_code == 429  # paused, even with the right password
    _refusal(_use(key), "token_invalid")
    assert _use(bystander).status_code == 200


def test_fewer_wrong_passwords_than_a_pause_leave_the_token_alone(director):
    key = _issue().json()["token"]
    for n in range(4):
        assert _issue(password=f"guess-{n}").status_code == 400
    assert _use(key).status_code == 200


def test_a_key_that_cannot_be_a_token_is_refused_without_a_query(django_assert_num_queries):
    with django_assert_num_queries(0):
        answer = _use("abc\x00def")
    _refusal(answer, "token_invalid")


def test_the_schema_lists_asking_for_and_revoking_a_token(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    operations = schema["paths"][URL]
    assert set(operations) == {"post", "delete"}
    assert "204" in operations["delete"]["responses"]
    token = schema["components"]["schemas"]["Token"]["properties"]
    assert set(token) == {"token", "expires"}
