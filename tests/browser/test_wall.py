"""The projector wall in a real browser at 1920x1080: text of at least 32 px, every player's
row shown within the 2-minute cycle, no row cut off, nothing to touch, new results without a
reload; the bracket in the playoffs and the champion at the end. Screenshots: wall-*.png."""

import pytest

from tests.browser.conftest import screenshot
from tests.helpers import play_game
from tournaments.models import Entry, Event, Match, Table
from tournaments.services.playoffs_matches import match_game_report
from tournaments.services.results import card_line_report

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WALL = {"width": 1920, "height": 1080}

# Every element that shows text of its own, with its font size and box, if it is visible.
VISIBLE_TEXT = """() => [...document.querySelectorAll('.wall-main *')]
  .filter(e => e.offsetParent !== null && [...e.childNodes].some(
      n => n.nodeType === 3 && n.textContent.trim()))
  .map(e => { const box = e.getBoundingClientRect(); return {
      text: e.textContent.trim(), size: parseFloat(getComputedStyle(e).fontSize),
      top: box.top, bottom: box.bottom, right: box.right }; })"""

SPILLING = """() => [...document.querySelectorAll('.wall-row, .wall-side')]
  .filter(e => e.offsetParent !== null && e.scrollWidth > e.clientWidth + 1)
  .map(e => e.textContent.trim())"""


def _plan(page) -> tuple[int, int]:
    wall = page.locator("[data-wall]")
    return int(wall.get_attribute("data-wall-pages")), int(wall.get_attribute("data-wall-page-ms"))


def _check_page(page) -> list[str]:
    """The texts shown now, after checking each is large and inside the screen."""
    shown = page.evaluate(VISIBLE_TEXT)
    small = [(t["text"], t["size"]) for t in shown if t["size"] < 32]
    assert not small, f"text under 32 px: {small[:5]}"
    outside = [t["text"] for t in shown if t["bottom"] > 1080 + 0.5 or t["right"] > 1920 + 0.5]
    assert not outside, f"cut off at the screen's edge: {outside[:5]}"
    spilling = page.evaluate(SPILLING)
    assert not spilling, f"text spilling out of its row into the next column: {spilling[:5]}"
    return [t["text"] for t in shown]


def _each_page(page):
    """Step through every page of the cycle once, yielding the texts each shows."""
    wall = page.locator("[data-wall]")
    pages, page_ms = _plan(page)
    for number in range(1, pages + 1):
        for _ in range(int(page_ms / 50) * 3 + 40):
            if wall.get_attribute("data-wall-page") == str(number):
                break
            page.wait_for_timeout(50)
        assert wall.get_attribute("data-wall-page") == str(number), "the pages stopped turning"
        yield number, _check_page(page)


def test_the_qualifying_wall_shows_every_player_within_the_cycle(
    open_page, live_server, qualified_event_open
):
    event = qualified_event_open
    names = set(Entry.objects.filter(event=event).values_list("player__name", flat=True))
    url = f"{live_server.url}/events/{event.pk}/wall/"
    page = open_page(url, **WALL)
    assert page.locator("a, button, input, select").count() == 0, "nothing to touch"
    pages, page_ms = _plan(page)
    assert pages >= 2 and pages * page_ms <= 120_000
    screenshot(page, "wall-qualifying")

    # The same wall turning a page a second: every name is found in the pairings and in the
    # standings, and no text is small or off the screen on any page.
    fast = open_page(url + "?seconds=1", **WALL)
    in_pairings, in_standings = set(), set()
    for number, texts in _each_page(fast):
        title = fast.locator(".wall-section:not([hidden]) .wall-title").inner_text()
        (in_pairings if title.startswith("Game") else in_standings).update(texts)
        if number == 2:
            screenshot(fast, "wall-standings")
    assert names <= in_pairings and names <= in_standings

    # A result arriving while the wall shows: the standings follow without a reload.
    table = Table.objects.get(game__event=event, game__number=3, number=1)
    winner, loser = table.seats.order_by("position")
    row = fast.locator(".wall-row.standing").filter(has_text=winner.entry.player.name)
    before = row.text_content()
    card_line_report(seat=winner, won=True, spread=121)
    card_line_report(seat=loser, won=False, spread=121)
    for _ in range(70):  # 7 s: the poll is every 3.5 to 4 s
        if row.text_content() != before:
            break
        fast.wait_for_timeout(100)
    assert row.text_content() != before, "the standings did not follow the new result"

    phone = open_page(url)
    screenshot(phone, "wall-phone")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.fixture
def qualified_event_open(event_in_play):
    """30 players, games 1 and 2 played, game 3 published and open, the event published."""
    from tournaments.models import Game
    from tournaments.services.pairings import game_pairings_request, game_publish

    event = event_in_play(30, qualifying_games=3, qualifier_ratio=4)
    ids = Entry.objects.filter(event=event).values_list("pk", flat=True)
    strength = {e: i % 14 for i, e in enumerate(ids)}  # play_game's spreads stay 2 to 31
    for number in (1, 2, 3):
        if number > 1:
            game_pairings_request(event=event, number=number, user=event.director)
            game_publish(game=Game.objects.get(event=event, number=number), user=event.director)
        if number < 3:
            play_game(event, number, strength=strength)
    Event.objects.filter(pk=event.pk).update(published=True)
    return event


def test_the_wall_shows_the_bracket_then_the_champion(open_page, live_server, bracket_event):
    event = bracket_event(16)
    page = open_page(f"{live_server.url}/events/{event.pk}/wall/", **WALL)
    rounds = page.locator(".wall-round-name")
    assert [r.split(" best")[0] for r in rounds.all_inner_texts()] == ["Semi-finals", "Final"]
    _check_page(page)
    screenshot(page, "wall-bracket")

    for round_number in (1, 2):
        for match in Match.objects.filter(playoff__event=event, round=round_number):
            for _ in range(2):
                match_game_report(match=match, entry=match.entry_a, won=True, spread=25)
                match_game_report(match=match, entry=match.entry_b, won=False, spread=25)
    champion = Match.objects.get(playoff__event=event, round=2).winner.player.name
    page.locator(".wall-champion").filter(has_text=champion).wait_for(timeout=7000)
    _check_page(page)
    screenshot(page, "wall-champion")

    public = open_page(f"{live_server.url}/events/{event.pk}/")
    assert champion in public.locator(".champion").inner_text()
    screenshot(public, "public-event-champion-phone")
