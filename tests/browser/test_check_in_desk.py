"""The check-in desk's search box in a real browser at phone width (issue 22 item 13): typing
narrows the list of 24 names at once, and the narrowing holds when the live part is replaced."""

import pytest

from tests.browser.conftest import log_in, screenshot
from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tournaments.models import Entry
from tournaments.services.check_in import entry_check_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct horse battery"
NAMES = [f"Player {n:02d} Pegg" for n in range(1, 23)] + ["Edna Marsh", "Margaret Oakes"]


def test_typing_a_name_narrows_the_desk_and_stays_narrowed_when_it_updates(open_page, live_server):
    director = UserFactory()
    director.set_password(PASSWORD)
    director.save()
    event = EventFactory(director=director, name="Tuesday club night")
    for name in NAMES:
        EntryFactory(event=event, status="registered", player=PlayerFactory(name=name))

    desk = open_page(f"{live_server.url}/")
    log_in(desk, live_server, director.username, PASSWORD)
    desk.goto(f"{live_server.url}/events/{event.pk}/check-in/")
    rows = desk.locator("#live .check-in-list li:visible")
    assert rows.count() == 24
    desk.get_by_label("Find a player by name").press_sequentially("mar")
    assert rows.all_inner_texts() and [t.split("\n")[0] for t in rows.all_inner_texts()] == [
        "Edna Marsh",
        "Margaret Oakes",
    ]
    screenshot(desk, "check-in-desk-search")

    entry_check_in(entry=Entry.objects.get(player__name="Player 01 Pegg"), user=director)
    desk.locator(".check-in-count", has_text="1 of 24").wait_for(timeout=15000)
    assert [t.split("\n")[0] for t in rows.all_inner_texts()] == ["Edna Marsh", "Margaret Oakes"]
    assert desk.evaluate("document.documentElement.scrollWidth") <= 390
