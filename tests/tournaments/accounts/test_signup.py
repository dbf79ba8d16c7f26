"""Accounts people make themselves: sign up, confirm the address by the e-mailed link, sign in;
reset a forgotten password; sign-up is throttled per address."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import caches
from django.test import Client, override_settings

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "pegging-out-at-121"


@pytest.fixture(autouse=True)
def fresh_limits():
    """allauth's limits are counted in the default cache, which outlives a test."""
    caches["default"].clear()


def _signup(client, username="margaret", email="margaret@example.org", **extra):
    data = {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD}
    return client.post("/accounts/signup/", {**data, **extra})


def _link(message) -> str:
    return re.search(r"https?://[^/\s]+(/\S+)", message.body).group(1)


def _login(client, username="margaret", password=PASSWORD):
    return client.post("/accounts/login/", {"username": username, "password": password})


def test_sign_up_confirm_by_the_emailed_link_then_sign_in():
    client = Client()
    page = client.get("/accounts/signup/")
    assert page.status_code == 200 and "<h1>Make an account</h1>" in page.content.decode()
    answer = _signup(client)
    assert answer.status_code == 302 and answer["Location"] == "/accounts/confirm-email/"
    assert get_user_model().objects.filter(username="margaret").exists()
    assert "_auth_user_id" not in client.session
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["margaret@example.org"]

    refused = _login(Client())
    assert refused.status_code == 200
    assert "Confirm your e-mail address first" in refused.content.decode()
    assert len(mail.outbox) == 2  # the link again

    confirm = client.get(_link(mail.outbox[0]))
    assert confirm.status_code == 200
    done = client.post(_link(mail.outbox[0]))
    assert done.status_code == 302
    assert "_auth_user_id" in client.session  # signed in by confirming

    again = Client()
    assert _login(again).status_code == 302 and "_auth_user_id" in again.session


def test_a_refused_sign_up_keeps_what_was_typed_and_says_why():
    UserFactory(username="margaret")
    answer = _signup(Client(), password2="something-else")
    html = answer.content.decode()
    assert answer.status_code == 200
    assert 'value="margaret@example.org"' in html and 'value="margaret"' in html
    assert "already exists" in html or "already taken" in html or "same password" in html
    assert get_user_model().objects.filter(username="margaret").count() == 1


def test_accounts_made_by_staff_sign_in_as_before():
    UserFactory(username="director", password=PASSWORD)
    client = Client()
    assert _login(client, "director").status_code == 302 and "_auth_user_id" in client.session


def test_a_forgotten_password_is_reset_by_the_emailed_link():
    UserFactory(username="director", email="d@example.org", password="old-password-99")
    client = Client()
    assert client.get("/accounts/password_reset/")["Location"] == "/accounts/password/reset/"
    answer = client.post("/accounts/password/reset/", {"email": "d@example.org"})
    assert answer.status_code == 302 and len(mail.outbox) == 1
    key_page = client.get(_link(mail.outbox[0]), follow=True)
    form_url = key_page.redirect_chain[-1][0] if key_page.redirect_chain else _link(mail.outbox[0])
    new = "a-brand-new-password-7"
    done = client.post(form_url, {"password1": new, "password2": new})
    assert done.status_code == 302
    assert _login(Client(), "director", new).status_code == 302


@override_settings(ACCOUNT_RATE_LIMITS={"signup": "2/h/ip"})
def test_sign_up_is_throttled_per_address():
    client = Client()
    assert _signup(client, "one", "one@example.org").status_code == 302
    assert _signup(client, "two", "two@example.org").status_code == 302
    third = _signup(client, "three", "three@example.org")
    assert third.status_code == 429
    assert not get_user_model().objects.filter(username="three").exists()
    # The site's 429 page, saying the longest wait (the limit's period) and what to do.
    assert third["Retry-After"] == "3600"
    html = third.content.decode()
    assert "Please wait up to 60 minutes" in html and "Back button" in html


@override_settings(
    ACCOUNT_RATE_LIMITS={"signup": "1/h/ip"},
    REST_FRAMEWORK={**settings.REST_FRAMEWORK, "NUM_PROXIES": 1},
)
def test_behind_the_proxy_sign_up_counts_each_visitor_not_the_proxy():
    """allauth alone counted REMOTE_ADDR, the proxy's one address for every visitor: one
    sign-up an hour for the whole site. It counts the address the proxy saw, as every limit."""

    def visitor(address):
        return Client(REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=address)

    assert _signup(visitor("198.51.100.7"), "one", "one@example.org").status_code == 302
    assert _signup(visitor("203.0.113.9"), "two", "two@example.org").status_code == 302
    assert _signup(visitor("198.51.100.7"), "three", "three@example.org").status_code == 429
    assert get_user_model().objects.count() == 2


def test_the_login_page_offers_sign_up_and_a_forgotten_password():
    html = Client().get("/accounts/login/?next=/me/").content.decode()
    assert 'href="/accounts/signup/?next=/me/"' in html or "/accounts/signup/?next=%2Fme%2F" in html
    assert 'href="/accounts/password/reset/"' in html
