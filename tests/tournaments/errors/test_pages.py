"""The 404, 403, CSRF-failure and 500 pages as a visitor sees them with DEBUG off: the right
status, words that say what to do next, and nothing inline for the Content-Security-Policy to
block. This module is also the URLconf of the 500 test (the site's URLs plus a failing view)."""

import re

import pytest
from django.db import OperationalError, connection
from django.template.loader import render_to_string
from django.test import Client, override_settings
from django.urls import include, path

from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("debug_off")]


def _boom(request):
    raise RuntimeError("a bug in a view")


def _database_down(request):
    raise OperationalError("connection refused")


urlpatterns = [
    path("", include("config.urls")),
    path("test-only/boom/", _boom),
    path("test-only/database-down/", _database_down),
]


@pytest.fixture
def debug_off():
    with override_settings(DEBUG=False):
        yield


def _nothing_inline(page: str) -> None:
    """The policy allows styles and scripts from files only: no <style>, style= or <script>."""
    assert not re.search(r"<style|\sstyle=|<script(?![^>]*\bsrc=)", page), page


def test_a_bad_private_link_says_to_ask_the_director(client):
    response = client.get("/r/nonsense-token/")
    page = response.content.decode()
    assert response.status_code == 404
    assert "This link is not valid. Ask the director for your scorecard link." in page
    assert "This scorecard link does not work" in page
    assert 'href="/"' in page and "css/pegboard.css" in page
    assert "content-security-policy" in response.headers
    _nothing_inline(page)


def test_a_mistyped_link_under_r_gets_the_same_advice(client):
    page = client.get("/r/half-a-link/and-more/").content.decode()
    assert "Ask the director for your scorecard link" in page
    assert "Resolver404" not in page


def test_an_unknown_address_says_the_page_does_not_exist(client):
    response = client.get("/no-such-page/")
    page = response.content.decode()
    assert response.status_code == 404
    assert "This page does not exist" in page and "it lists the events" in page
    assert 'href="/"' in page
    assert "Resolver404" not in page and "scorecard" not in page
    _nothing_inline(page)


def test_a_missing_event_shows_the_sites_own_reason(client):
    client.force_login(UserFactory())
    page = client.get("/events/999999/").content.decode()
    assert "This page does not exist" in page and "No such event." in page
    assert 'href="/events/"' in page  # signed in: a way to their own events


def test_another_directors_event_is_refused_with_the_reason(client, event_in_play):
    event = event_in_play(10)
    client.force_login(UserFactory())
    response = client.get(f"/events/{event.pk}/manage/")
    page = response.content.decode()
    assert response.status_code == 403
    assert "You cannot open this page" in page
    assert "Only this event&#x27;s directors may manage it." in page
    _nothing_inline(page)


def test_a_form_without_its_token_says_to_reload_and_try_again():
    client = Client(enforce_csrf_checks=True)
    client.force_login(UserFactory())
    response = client.post("/events/new/", {"name": "x"}, HTTP_REFERER="http://testserver/events/")
    page = response.content.decode()
    assert response.status_code == 403
    assert (
        "This form was open too long or your browser blocked cookies: go back, reload the page "
        "and try again." in page
    )
    assert 'href="http://testserver/events/"' in page  # back to the form, to reload it
    assert "For developers" not in page
    _nothing_inline(page)


def test_the_csrf_page_never_links_back_to_another_site():
    client = Client(enforce_csrf_checks=True)
    page = client.post("/accounts/login/", HTTP_REFERER="https://evil.example/").content.decode()
    assert "reload the page and try again" in page and "evil.example" not in page


@override_settings(DEBUG=True)
def test_with_debug_on_the_csrf_page_also_says_why_for_developers():
    client = Client(enforce_csrf_checks=True)
    page = client.post("/accounts/login/").content.decode()
    assert "reload the page and try again" in page and "For developers" in page
    assert "CSRF cookie not set" in page


@override_settings(ROOT_URLCONF=__name__)
def test_a_crash_shows_the_standalone_500_page(client):
    client.raise_request_exception = False
    response = client.get("/test-only/boom/")
    page = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong" in page and "tell the director" in page
    assert "css/pegboard.css" in page and 'href="/"' in page
    _nothing_inline(page)


@override_settings(ROOT_URLCONF=__name__)
def test_the_500_page_needs_no_database(client):
    client.raise_request_exception = False

    def refuse(*args, **kwargs):
        raise OperationalError("the database is down")

    with connection.execute_wrapper(refuse):
        response = client.get("/test-only/database-down/")
    assert response.status_code == 500 and "Something went wrong" in response.content.decode()
    # Rendered as Django does it: no request, no context processors, no user.
    assert "Something went wrong" in render_to_string("500.html")
