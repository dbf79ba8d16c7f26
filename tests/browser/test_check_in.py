"""Check-in by QR code in a real browser at phone width: a player opens their link and taps to
check in; the director's desk page shows the new count without a reload."""

import pytest

from tests.browser.conftest import log_in, screenshot
from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct horse battery"


def _log_in(page, live_server, username):
    log_in(page, live_server, username, PASSWORD)


def _no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_player_checks_in_by_link_and_the_desk_sees_it_live(open_page, live_server):
    director_user = UserFactory()
    director_user.set_password(PASSWORD)
    director_user.save()
    event = EventFactory(director=director_user, name="Maritime Open Main")
    EntryFactory.create_batch(2, event=event)
    for name in ("Ann Arsenault", "Bernard LeBlanc-Thibodeau", "Carol Chiasson"):
        EntryFactory(event=event, status="registered", player=PlayerFactory(name=name))
    ann = Entry.objects.get(event=event, player__name="Ann Arsenault")

    desk = open_page(f"{live_server.url}/")
    _log_in(desk, live_server, director_user.username)
    desk.goto(f"{live_server.url}/events/{event.pk}/check-in/")
    count = desk.locator(".check-in-count")
    assert count.inner_text() == "2 of 5 checked in"
    assert desk.locator(".check-in-qr svg").is_visible()
    desk.evaluate("window.notReloaded = true")
    screenshot(desk, "check-in-desk-before")
    _no_sideways_scroll(desk)

    player = open_page(f"{live_server.url}/r/{ann.report_token}/")
    button = player.get_by_role("button", name="Yes, I am here: check me in")
    assert button.bounding_box()["height"] >= 60
    screenshot(player, "check-in-player-link")
    _no_sideways_scroll(player)
    ann.refresh_from_db()
    assert ann.status == "registered"  # opening the link did nothing
    button.click()
    assert "You are checked in" in player.locator(".check-in-done").inner_text()
    screenshot(player, "check-in-player-done")
    _no_sideways_scroll(player)

    count.filter(has_text="3 of 5 checked in").wait_for(timeout=7000)
    assert desk.evaluate("window.notReloaded === true")
    assert "Ann Arsenault" in desk.locator("#in-heading + .check-in-list").inner_text()
    screenshot(desk, "check-in-desk-after")
    _no_sideways_scroll(desk)

    desk.get_by_role("link", name="Check in everyone present…").click()
    desk.get_by_label("Bernard LeBlanc-Thibodeau").check()
    desk.get_by_label("Carol Chiasson").check()
    screenshot(desk, "check-in-everyone-form")
    _no_sideways_scroll(desk)
    desk.get_by_role("button", name="Check in the ticked players…").click()
    desk.get_by_role("button", name="Yes, check in 2 players").click()
    assert "2 players checked in." in desk.locator(".messages").inner_text()
    assert count.inner_text() == "5 of 5 checked in"
    screenshot(desk, "check-in-desk-everyone")
    _no_sideways_scroll(desk)


def test_a_signed_in_player_checks_in_with_the_events_code(open_page, live_server):
    from tournaments.views.check_in import event_check_in_code

    event = EventFactory(director=UserFactory(), name="Maritime Open Main")
    user = UserFactory()
    user.set_password(PASSWORD)
    user.save()
    entry = EntryFactory(
        event=event, status="registered", player=PlayerFactory(name="Dot Doucet", user=user)
    )
    page = open_page(f"{live_server.url}/")
    _log_in(page, live_server, user.username)
    page.goto(f"{live_server.url}/events/{event.pk}/check-in/{event_check_in_code(event)}/")
    assert "Dot Doucet" in page.locator("main").inner_text()
    screenshot(page, "check-in-code-player")
    _no_sideways_scroll(page)
    page.get_by_role("button", name="Yes, I am here: check me in").click()
    assert "You are checked in" in page.locator(".check-in-done").inner_text()
    entry.refresh_from_db()
    assert entry.status == "checked_in"
    screenshot(page, "check-in-code-done")
