"""The public bracket in a real browser: readable on a phone without sideways page scrolling,
and showing a match game's result after a reload."""

import pytest

from tests.browser.conftest import screenshot
from tournaments.models import Match
from tournaments.services.playoffs_matches import match_game_report

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _page_overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_bracket_fits_a_phone_and_shows_a_reported_game(open_page, live_server, bracket_event):
    bracket_event = bracket_event(12)  # three qualifiers: seed 1 has a bye
    url = f"{live_server.url}/events/{bracket_event.pk}/bracket/"
    page = open_page(url)
    assert page.locator(".bracket-round").count() == 2
    assert _page_overflow(page) <= 0, "the page itself must not scroll sideways"
    box = page.locator(".bracket")
    assert box.evaluate("e => e.scrollWidth > e.clientWidth"), "the rounds scroll inside the box"
    semi = Match.objects.get(playoff__event=bracket_event, round=1, slot=1)
    cell = page.locator(f"[data-match='{semi.pk}']")
    assert "0–0" in cell.inner_text() and semi.entry_a.player.name in cell.inner_text()
    screenshot(page, "bracket-phone")

    match_game_report(match=semi, entry=semi.entry_a, won=True, spread=14)
    match_game_report(match=semi, entry=semi.entry_b, won=False, spread=14)
    page.reload()
    assert "1–0" in page.locator(f"[data-match='{semi.pk}']").inner_text()
    screenshot(page, "bracket-phone-after-game")

    wide = open_page(url, width=1920, height=1080)
    assert _page_overflow(wide) <= 0
    assert not wide.locator(".bracket").evaluate("e => e.scrollWidth > e.clientWidth")
    winner_line = wide.locator(".bracket-match.bye .bracket-side.won")
    assert winner_line.count() == 1  # the bye's seed 1 is through, highlighted
    screenshot(wide, "bracket-projector")
    wide.emulate_media(media="print")
    assert wide.locator(".site-header").is_hidden()
    screenshot(wide, "bracket-print")
