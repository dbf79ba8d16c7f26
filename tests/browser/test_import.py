"""A director imports a list exported from European Excel (semicolons, a byte-order mark) on
a phone, sees what was imported, then uploads a grown list with mistakes in it and lands on
the list of every problem."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ARTIFACTS, screenshot
from tests.browser.test_roles_and_ruling import PASSWORD, _log_in, _no_sideways_scroll
from tests.factories import EventFactory, UserFactory
from tournaments.models import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WIDTH, HEIGHT = 390, 844

FIRST = "\ufeffName;ACC Number;Club\r\nZoë Ärger;A-1;Riverside\r\nBea Baker;A-2;Hillside\r\n"
GROWN = FIRST + "Cal Cross;;\r\nDot Dealer;D 4?;\r\ncal cross;;\r\n"


def _import(page, text: str, name: str):
    section = page.locator("section", has=page.get_by_role("heading", name="Import a list"))
    section.get_by_label("CSV file").set_input_files(
        {"name": name, "mimeType": "text/csv", "buffer": text.encode("utf-8")}
    )
    section.get_by_role("button", name="Import").click()
    page.wait_for_load_state()


def test_a_semicolon_list_is_imported_then_a_bad_one_is_explained(open_page, live_server):
    director = UserFactory(username="td")
    director.set_password(PASSWORD)
    director.save()
    event = EventFactory(director=director, name="Spring Open")

    page = open_page(f"{live_server.url}/", width=WIDTH, height=HEIGHT, form_errors=True)
    _log_in(page, live_server, "td")
    page.goto(f"{live_server.url}/events/{event.pk}/manage/")
    ARTIFACTS.mkdir(exist_ok=True)
    _import(page, FIRST, "players.csv")
    # Clubs are public: names no club has are asked about before any is made.
    expect(page.get_by_role("heading", name="Which clubs are these?")).to_be_visible()
    for choice in page.locator("select").all():
        choice.select_option("new")
    screenshot(page, "import-clubs-phone")
    page.get_by_role("button", name="Import the list").click()
    page.wait_for_url(f"{live_server.url}/events/{event.pk}/manage/**")
    status = page.get_by_role("status")
    assert status.inner_text() == "2 players imported."
    assert status.bounding_box()["y"] < HEIGHT, "the counts are seen without scrolling"
    page.screenshot(path=str(ARTIFACTS / "import-done-phone-viewport.png"))
    screenshot(page, "import-done-phone")

    _import(page, GROWN, "players-updated.csv")
    problems = page.locator("#import-problems")
    assert problems.get_attribute("role") == "alert"
    text = problems.inner_text()
    assert "Nothing was imported." in text
    assert "Row 5, ACC Number: 'D 4?' is not an ACC number." in text
    assert "Row 6, Name: Same player as row 4." in text
    assert "Already entered, so they will be skipped: Zoë Ärger (row 2), Bea Baker (row 3)." in text
    expect(problems).to_be_focused()
    box = problems.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= HEIGHT, "the problems are on screen"
    page.screenshot(path=str(ARTIFACTS / "import-errors-phone-viewport.png"))
    screenshot(page, "import-errors-phone")
    _no_sideways_scroll(page)
    assert Entry.objects.filter(event=event).count() == 2
