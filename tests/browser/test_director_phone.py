"""A director on a phone (390x844): the menu is one "Menu" button beside the brand, it opens and
closes from the keyboard, and no director page scrolls sideways."""

import pytest
from django.test import Client

from tests.browser.conftest import screenshot
from tournaments.demo import demo_director, demo_events_build
from tournaments.models import Event, Game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def signed_in(open_page, live_server):
    director, _ = demo_director()
    demo_events_build(director=director)
    client = Client()
    client.force_login(director)

    def _open(path, **size):
        page = open_page("about:blank", **size)
        page.context.add_cookies(
            [
                {
                    "name": "sessionid",
                    "value": client.cookies["sessionid"].value,
                    "url": live_server.url,
                }
            ]
        )
        assert page.goto(live_server.url + path).status == 200, path
        return page

    return _open


def _director_paths():
    paths = ["/events/"]
    for event in Event.objects.all():
        base = f"/events/{event.pk}/"
        paths += [
            base + p
            for p in (
                "manage/",
                "settings/",
                "history/",
                "money/",
                "results/",
                "standings/",
                "cross-checks/",
                "rulings/",
                "bracket/",
            )
        ]
        for game in Game.objects.filter(event=event).order_by("number")[:2]:
            paths += [
                f"{base}games/{game.number}/",
                f"{base}games/{game.number}/board/",
                f"{base}games/{game.number}/tables/1/",
            ]
    return paths


def test_the_menu_is_one_button_on_a_phone_and_a_row_on_a_wide_screen(signed_in):
    main = Event.objects.filter(finalised_at__isnull=False).first()
    page = signed_in(f"/events/{main.pk}/manage/")
    menu = page.get_by_role("navigation", name="Main")
    button = menu.locator("summary")
    brand = menu.get_by_role("link", name="Pegboard")
    assert button.is_visible() and not menu.get_by_role("link", name="My events").is_visible()
    header = page.locator(".site-header").bounding_box()
    assert header["height"] < 80, "brand and Menu button share one row"
    assert abs(button.bounding_box()["y"] - brand.bounding_box()["y"]) < 20
    box = button.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    screenshot(page, "director-phone-manage-menu-closed")

    button.focus()
    page.keyboard.press("Enter")
    assert menu.get_by_role("link", name="My events").is_visible()
    for link in menu.locator(".nav-links a, .nav-links button").all():
        assert link.bounding_box()["height"] >= 44
    screenshot(page, "director-phone-menu-open")
    page.keyboard.press("Escape")
    assert not menu.get_by_role("link", name="My events").is_visible()
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"

    wide = signed_in(f"/events/{main.pk}/manage/", width=1280, height=800)
    wide_menu = wide.get_by_role("navigation", name="Main")
    assert wide_menu.get_by_role("link", name="My events").is_visible()
    assert not wide_menu.locator("summary").is_visible()


def test_no_director_page_scrolls_sideways_on_a_phone(signed_in):
    page = signed_in("/events/")
    wide = []
    for path in _director_paths():
        page.goto(page.url.split("/events/")[0] + path)
        if page.evaluate("document.documentElement.scrollWidth") > 390:
            wide.append(path)
        scrolling = page.evaluate(
            """() => [...document.querySelectorAll('table')].filter(
                t => t.scrollWidth > t.clientWidth + 1).map(t => t.className || 'table')"""
        )
        if scrolling:
            wide.append(f"{path}: {scrolling}")
    assert not wide, "scrolls sideways at 390 px: " + ", ".join(wide)

    main = Event.objects.filter(finalised_at__isnull=False).first()
    for path, name in (
        (f"/events/{main.pk}/games/1/board/", "director-phone-board"),
        (f"/events/{main.pk}/money/", "director-phone-money"),
    ):
        page.goto(page.url.split("/events/")[0] + path)
        screenshot(page, name)
