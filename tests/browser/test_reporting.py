"""A player reports from their phone in a real browser; the opponent confirms; standings show it."""

import re

import pytest

from tests.browser.conftest import screenshot
from tournaments.models import Event, Table

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_player_reports_a_skunk_from_the_private_link(open_page, live_server, event_in_play):
    event = event_in_play(10)
    Event.objects.filter(pk=event.pk).update(published=True)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    winner, loser = (seat.entry for seat in table.seats.order_by("position"))

    page = open_page(f"{live_server.url}/r/{winner.report_token}/", form_errors=True)
    assert "Table 1" in page.locator(".current-game").inner_text()
    page.get_by_text("I won").click()
    for key in "122":
        page.locator(f".keypad [data-key='{key}']").click()
    page.get_by_role("button", name="Check my result").click()
    assert "spread" in page.get_by_role("alert").inner_text().lower()
    wide = page.evaluate(
        "[...document.querySelectorAll('body *')]"
        ".filter(e => e.getBoundingClientRect().right > 390)"
        ".map(e => e.tagName + '.' + e.className)"
    )
    assert not wide, f"no sideways scrolling on a phone: {wide[:5]}"
    screenshot(page, "report-refused")

    page.get_by_label("By how many points (spread)?").fill("35")
    page.get_by_text("I won").click()
    page.get_by_role("button", name="Check my result").click()
    preview = page.locator(".preview").inner_text()
    assert "skunk" in preview and "3 game points" in preview
    screenshot(page, "report-preview")
    page.get_by_role("button", name="Save this result").click()
    # Kept on the phone, sent to the API, then the page's part follows (report-offline.js).
    state = page.locator(".state")
    state.filter(has_text="Saved. Waiting").wait_for(timeout=8000)
    assert state.inner_text() == f"Saved. Waiting for {loser.player.name} to report."
    screenshot(page, "report-waiting")

    other = open_page(f"{live_server.url}/r/{loser.report_token}/")
    assert other.locator(".state").inner_text() == f"{winner.player.name} has reported: your turn."
    # Their figures are not shown (a whole "35": a player may be named "Player 4835").
    assert not re.search(r"\b35\b", other.locator(".current-game").inner_text())
    screenshot(other, "report-your-turn")
    other.get_by_text("I lost").click()
    other.get_by_label("By how many points (spread)?").fill("35")
    other.get_by_role("button", name="Check my result").click()
    other.get_by_role("button", name="Save this result").click()
    other.locator(".state", has_text="Both cards agree").wait_for(timeout=8000)
    assert "Both cards agree: this game is verified." in other.content()
    screenshot(other, "report-verified")

    # The winner's page, left open, follows without a reload (polling every 3.5 to 4 s).
    state.filter(has_text="Both cards agree").wait_for(timeout=8000)
    assert "verified" in page.locator(".card-table").inner_text()

    standings = open_page(f"{live_server.url}/events/{event.pk}/standings/")
    first_row = standings.locator("table.standings tbody tr").first.inner_text()
    assert winner.player.name in first_row and "35" in first_row
    screenshot(standings, "standings-phone")
