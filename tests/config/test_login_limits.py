"""Wrong passwords: five for one user name pause it for 15 minutes, on the login page, the admin
and the API token endpoint alike; other user names, even from the same address, are not touched."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "right-horse-battery-staple"


@pytest.fixture
def director():
    user = UserFactory(username="director")
    user.set_password(PASSWORD)
    user.save()
    return user


def _page_login(client, password, username="director"):
    return client.post("/accounts/login/", {"username": username, "password": password})


def _token(client, password, username="director"):
    return client.post("/api/v1/auth/token/", {"username": username, "password": password})


def test_thirty_wrong_passwords_then_the_right_one_is_refused_with_a_clear_page(director):
    client = Client()
    answers = [_page_login(client, f"guess-{n}").status_code for n in range(30)]
    assert answers[:4] == [200] * 4  # the form again, with its error
    assert set(answers[4:]) == {429}  # the fifth wrong password starts the pause
    right = _page_login(client, PASSWORD)
    assert right.status_code == 429
    html = right.content.decode()
    assert "<h1>Signing in is paused</h1>" in html and "15 minutes" in html
    assert int(right["Retry-After"]) == 900
    assert "_auth_user_id" not in client.session


def test_the_api_token_endpoint_counts_the_same_failures(director):
    api = APIClient()
    for n in range(3):
        assert _token(api, f"guess-{n}").status_code == 400
    assert _page_login(Client(), "page-guess").status_code == 200
    assert _token(api, "the-fifth-guess").status_code == 429
    refused = _token(api, PASSWORD)
    assert refused.status_code == 429
    assert refused.json()["errors"][0]["code"] == "locked_out"
    assert "15 minutes" in refused.json()["errors"][0]["message"]


def test_other_user_names_from_the_same_address_sign_in(director):
    judge = UserFactory(username="judge")
    judge.set_password(PASSWORD)
    judge.save()
    client = Client()
    for n in range(6):
        _page_login(client, f"guess-{n}")
    assert _page_login(client, PASSWORD, username="judge").status_code == 302
    assert _token(APIClient(), PASSWORD, username="judge").json()["token"]


def test_a_success_clears_the_count_and_the_pause_ends(director):
    client = Client()
    for n in range(4):
        _page_login(client, f"guess-{n}")
    assert _page_login(client, PASSWORD).status_code == 302  # four failures: still allowed
    for n in range(5):
        _page_login(Client(), f"again-{n}")
    assert _page_login(Client(), PASSWORD).status_code == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert _page_login(Client(), PASSWORD).status_code == 302


def test_the_admin_login_is_counted_too(director):
    client = Client()
    for n in range(5):
        client.post("/admin/login/", {"username": "director", "password": f"guess-{n}"})
    assert _page_login(client, PASSWORD).status_code == 429
