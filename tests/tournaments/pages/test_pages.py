"""Base pages: navigation, login and logout, messages, admin for staff."""

import pytest

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
