"""The public bracket in a real browser: readable on a phone without sideways page scrolling,
and showing a match game's result after a reload."""

import pytest

from tests.browser.conftest import screenshot
from tests.tournaments.playoffs.conftest import break_cut_ties, play_game
from tournaments.models import Entry, Event, Game, Match
from tournaments.services.pairings import game_pairings_request, game_publish
from tournaments.services.playoffs import playoff_build
from tournaments.services.playoffs_matches import match_game_report

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def bracket_event(event_in_play):
    event = event_in_play(12, qualifying_games=2, qualifier_ratio=4, playoff_best_of=[3])
    ids = Entry.objects.filter(event=event).order_by("pk").values_list("pk", flat=True)
    strength = {entry: i for i, entry in enumerate(ids)}
    play_game(event, 1, strength=strength)
    game_pairings_request(event=event, number=2, user=event.director)
    game_publish(game=Game.objects.get(event=event, number=2), user=event.director)
    play_game(event, 2, strength=strength)
    break_cut_ties(event)
    playoff_build(event_id=event.pk)
    Event.objects.filter(pk=event.pk).update(published=True)
    return event


def _page_overflow(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth - window.innerWidth")


def test_bracket_fits_a_phone_and_shows_a_reported_game(open_page, live_server, bracket_event):
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
