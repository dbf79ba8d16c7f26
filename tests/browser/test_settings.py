"""A director changes the playoff lengths on the settings page, is refused a length the event
cannot use with the reason next to the field, and publishes the event from the reminder, in a
real browser at phone width."""

import pytest

from tests.browser.conftest import log_in, screenshot
from tests.factories import EventFactory, PlayerFactory, UserFactory
from tournaments.models import Entry, Event

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct horse battery"
REMINDER = "cannot see this event until you publish it"


def _log_in(page, live_server, username):
    log_in(page, live_server, username, PASSWORD)


def _no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_playoff_lengths_and_publishing_on_a_phone(open_page, live_server):
    director = UserFactory()
    event = EventFactory(director=director, preset="acc-main", name="Spring Open")
    for player in PlayerFactory.create_batch(30):  # 8 qualify: 3 rounds
        Entry.objects.create(event=event, player=player)
    settings_url = f"{live_server.url}/events/{event.pk}/settings/"

    page = open_page(f"{live_server.url}/", width=390, height=844, form_errors=True)
    _log_in(page, live_server, director.username)
    page.goto(settings_url)
    assert REMINDER in page.locator(".publish-reminder").inner_text()
    assert "ACC Main preset" in page.locator(".lead").inner_text()
    games = page.locator("#games")
    assert "With 30 entrants, the ACC schedule suggests 22 games" in games.inner_text()
    assert page.get_by_role("heading", name="The cut and playoffs").is_visible()
    screenshot(page, "settings-open")
    _no_sideways_scroll(page)

    page.get_by_label("Playoff matches").select_option("3")
    page.get_by_label("Final:", exact=True).select_option("7")
    page.get_by_role("button", name="Save settings").click()
    page.wait_for_url(f"{live_server.url}/events/{event.pk}/manage/")
    assert "Settings saved" in page.get_by_role("status").inner_text()
    assert REMINDER in page.locator(".publish-reminder").inner_text()
    screenshot(page, "settings-manage-reminder")
    _no_sideways_scroll(page)
    event.refresh_from_db()
    assert event.playoff_best_of == {"every": 3, "semi": None, "final": 7}

    page.goto(settings_url)
    assert page.get_by_label("Playoff matches").input_value() == "3"
    assert page.get_by_label("Final:", exact=True).input_value() == "7"
    page.get_by_label("Entrants per playoff place").fill("0")
    page.get_by_label("Final:", exact=True).select_option("9")
    page.get_by_role("button", name="Save settings").click()
    page.wait_for_load_state()
    final = page.locator("#playoffs > div", has=page.get_by_label("Final:", exact=True))
    assert "This event has no playoffs" in final.locator(".errorlist").inner_text()
    assert "Nothing was saved" in page.get_by_role("alert").first.inner_text()
    screenshot(page, "settings-refused")
    _no_sideways_scroll(page)
    event.refresh_from_db()
    assert (event.qualifier_ratio, event.playoff_best_of) == (
        4,
        {"every": 3, "semi": None, "final": 7},
    )

    page.goto(settings_url)
    page.get_by_role("link", name="Publish the event").click()
    page.get_by_label("Published").check()
    screenshot(page, "settings-publishing")
    page.get_by_role("button", name="Save settings").click()
    page.wait_for_url(f"{live_server.url}/events/{event.pk}/manage/#publishing")
    assert page.locator(".publish-reminder").count() == 0
    screenshot(page, "settings-manage-published")
    _no_sideways_scroll(page)
    assert Event.objects.get(pk=event.pk).published
