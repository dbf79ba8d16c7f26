"""Base pages: navigation, login and logout, messages, admin for staff."""

import re
from unittest import mock

import pytest
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_home_page_has_navigation_and_login_link(client):
    html = client.get("/").content.decode()
    assert '<nav class="nav" aria-label="Main">' in html
    assert 'href="/accounts/login/"' in html
    assert 'name="viewport"' in html


def test_login_then_logout(client):
    UserFactory(username="td")
    response = client.post(
        "/accounts/login/", {"username": "td", "password": "correct horse battery"}, follow=True
    )
    assert "Log out td" in response.content.decode()
    response = client.post("/accounts/logout/", follow=True)
    assert "Log in" in response.content.decode()


def test_wrong_password_is_explained(client):
    UserFactory(username="td")
    response = client.post("/accounts/login/", {"username": "td", "password": "nope"})
    assert response.status_code == 200
    assert "enter a correct username and password" in response.content.decode()


def test_admin_is_for_staff_only(client):
    client.force_login(UserFactory())
    assert client.get("/admin/").status_code == 302
    client.force_login(UserFactory(is_staff=True, is_superuser=True))
    assert client.get("/admin/").status_code == 200


def _menu_links(html: str) -> list[str]:
    menu = html.split('<nav class="nav" aria-label="Main">')[1].split("</nav>")[0]
    return re.findall(r'(?:href|action)="([^"]*)"', menu)


def test_the_menu_links_where_its_names_lead(client):
    """The menu's addresses are worked out once per process (context_processors.menu): each
    is still the address its name gives, for a visitor and for staff."""
    visitor = _menu_links(client.get("/").content.decode())
    assert visitor == [reverse(name) for name in (
        "home", "count-checker", "club-list", "weekend-list", "leaderboard", "login",
        "account_signup",
    )]  # fmt: skip
    client.force_login(UserFactory(is_staff=True))
    staff = _menu_links(client.get("/").content.decode())
    assert staff == [reverse(name) for name in (
        "home", "count-checker", "club-list", "weekend-list", "leaderboard", "event-list",
        "my-entries", "judge-events", "sanctioning-office", "account-links-admin",
        "admin:index", "logout",
    )]  # fmt: skip
    assert all(staff), "no empty link"


def test_the_menu_is_worked_out_once(client):
    client.get("/")
    with mock.patch("tournaments.context_processors.reverse") as worked_out:
        assert _menu_links(client.get("/").content.decode())[0] == "/"
    worked_out.assert_not_called()


def test_every_page_names_the_static_files_the_storage_gives(client, monkeypatch):
    """base.html's stylesheet, icon and menu script come from the storage
    (context_processors.ASSETS), as ``{% static %}`` gave them: a hashed name in production."""
    from django.contrib.staticfiles.storage import staticfiles_storage

    monkeypatch.setattr(staticfiles_storage, "url", lambda name: f"/static/hashed/{name}")
    html = client.get("/").content.decode()
    assert '<link rel="stylesheet" href="/static/hashed/css/pegboard.css">' in html
    assert '<link rel="icon" href="/static/hashed/favicon.svg"' in html
    assert '<script src="/static/hashed/js/menu.js" defer></script>' in html


def test_other_urls_give_their_own_menu(client, settings):
    client.get("/")
    settings.ROOT_URLCONF = "tests.tournaments.pages.prefixed_urls"
    assert _menu_links(client.get("/site/").content.decode())[0] == "/site/"
