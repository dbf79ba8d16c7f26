"""Pages that follow the event without a reload, in a real browser: the player's phone through
disagreeing cards, a cross-check and the next table; the director's board, the standings and
the bracket at a projector's size; the public event page. Each change must show within the
poll (3.5 s, plus up to 0.5 s so a thousand phones do not ask at once) and the request.

Screenshots go to test-artifacts/ (live-*.png)."""

import time

import pytest

from scoring.games import CardLine as EngineLine
from tests.browser.conftest import screenshot
from tournaments.models import Event, Game, Match, Table
from tournaments.services.corrections import table_correct
from tournaments.services.pairings import game_pairings_request, game_publish
from tournaments.services.playoffs_matches import match_game_report
from tournaments.services.results import card_line_report, game_close

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The poll is every 3.5 to 4 s; the rest is room for a loaded test machine.
FOLLOWS_WITHIN_MS = 7000


def _follows(locator, text: str) -> float:
    """Wait until ``locator`` shows ``text`` without a reload; the seconds it took."""
    started = time.monotonic()
    locator.filter(has_text=text).first.wait_for(timeout=FOLLOWS_WITHIN_MS)
    return time.monotonic() - started


def _signed_in(open_page, live_server, user, path: str, **size):
    from django.test import Client

    client = Client()
    client.force_login(user)
    page = open_page("about:blank", **size)
    session = client.cookies["sessionid"].value
    page.context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])
    page.goto(live_server.url + path)
    return page


def test_the_players_phone_follows_disagreement_cross_check_and_next_table(
    open_page, live_server, event_in_play
):
    event = event_in_play(10)
    Event.objects.filter(pk=event.pk).update(published=True)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    seat_a, seat_b = table.seats.order_by("position")
    a, b = seat_a.entry, seat_b.entry
    page = open_page(f"{live_server.url}/r/{a.report_token}/")
    state = page.locator(".state")
    assert state.inner_text() == "Nobody at your table has reported yet."
    # "Call a judge" sits in its own section, well below the report buttons.
    check = page.get_by_role("button", name="Check my result").bounding_box()
    judge = page.locator(".judge-call button").bounding_box()
    assert judge["y"] - (check["y"] + check["height"]) >= 150

    card_line_report(seat=seat_a, won=True, spread=20)
    page.reload()
    assert state.inner_text() == f"Saved. Waiting for {b.player.name} to report."
    card_line_report(seat=seat_b, won=False, spread=22)  # b copies the spread wrongly
    _follows(state, "disagree")
    assert "correct yours if it is wrong" in state.inner_text()
    screenshot(page, "live-phone-disagree")

    game_close(game=table.game, user=event.director)
    _follows(state, "a cross-checker will settle it")
    lines = {seat_a.pk: EngineLine(2, 22, 0), seat_b.pk: EngineLine(0, 0, 22)}
    table_correct(table=table, lines=lines, reason="Both scorecards say 22", user=event.director)
    _follows(state, "Settled by a cross-checker")
    settled = page.locator(".settled").inner_text()
    assert "Both scorecards say 22" in settled and "22" in settled and "20" in settled
    screenshot(page, "live-phone-settled")

    game_pairings_request(event=event, number=2, user=event.director)
    game_publish(game=Game.objects.get(event=event, number=2), user=event.director)
    seat = a.seats.get(game__number=2)
    opponent = seat.table.seats.exclude(pk=seat.pk).get().entry.player.name
    heading = page.locator(".current-game")
    _follows(heading, "Game 2")
    assert f"Table {seat.table.number} against {opponent}" in heading.inner_text()
    assert state.inner_text() == "Nobody at your table has reported yet."
    screenshot(page, "live-phone-next-table")


def test_board_and_standings_follow_a_verified_table_on_a_wide_screen(
    open_page, live_server, event_in_play
):
    event = event_in_play(10)
    Event.objects.filter(pk=event.pk).update(published=True)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    winner, loser = table.seats.order_by("position")
    board = _signed_in(
        open_page, live_server, event.director, f"/events/{event.pk}/games/1/board/",
        width=1920, height=1080,
    )  # fmt: skip
    standings = open_page(
        f"{live_server.url}/events/{event.pk}/standings/", width=1920, height=1080
    )
    first_row = board.locator("table.board tbody tr").first
    assert "Waiting" in first_row.inner_text()

    card_line_report(seat=winner, won=True, spread=47)
    card_line_report(seat=loser, won=False, spread=47)
    took = _follows(first_row, "Verified")
    screenshot(board, "live-board-wide")
    _follows(standings.locator("table.standings tbody tr").first, winner.entry.player.name)
    assert "47" in standings.locator("table.standings tbody tr").first.inner_text()
    screenshot(standings, "live-standings-wide")
    print(f"board followed a verified table in {took:.1f} s")


def test_the_bracket_follows_a_reported_match_game(open_page, live_server, bracket_event):
    bracket_event = bracket_event(16)  # four qualifiers: two semi-finals, no bye
    semi = Match.objects.get(playoff__event=bracket_event, round=1, slot=0)
    url = f"{live_server.url}/events/{bracket_event.pk}/bracket/"
    wide = open_page(url, width=1920, height=1080)
    phone = open_page(url)
    cell = f"[data-match='{semi.pk}']"
    assert "0–0" in wide.locator(cell).inner_text()
    match_game_report(match=semi, entry=semi.entry_a, won=True, spread=14)
    match_game_report(match=semi, entry=semi.entry_b, won=False, spread=14)
    _follows(wide.locator(cell), "1–0")
    _follows(phone.locator(cell), "1–0")
    screenshot(wide, "live-bracket-wide")
    screenshot(phone, "live-bracket-phone")


def test_a_phone_polls_as_the_server_paces_it(open_page, live_server, event_in_play, settings):
    """In a large field the server slows each phone's polls (X-Poll-Seconds, and the page's
    data-live-seconds) so that the event's phones stay within LIVE_POLL_BUDGET a second; the
    phone follows each answer."""
    event = event_in_play(10)
    entry = Table.objects.get(game__event=event, game__number=1, number=1).seats.first().entry
    settings.LIVE_POLL_BUDGET = 1  # 10 phones at 1 poll a second together: each every 10 s
    polls = []
    page = open_page("about:blank")
    page.on("request", lambda r: "part=live" in r.url and polls.append(time.monotonic()))
    opened = time.monotonic()
    page.goto(f"{live_server.url}/r/{entry.report_token}/")
    page.wait_for_timeout(8000)
    assert polls == []  # at 3.5-4 s it would have asked twice by now
    settings.LIVE_POLL_BUDGET = 100  # the next answer says 3.5 s again
    deadline = time.monotonic() + 15
    while len(polls) < 3 and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    assert len(polls) >= 3, polls
    assert polls[0] - opened >= 10  # the first waited the page's 10 s
    assert polls[2] - polls[1] < 4.5  # then the phone followed the answer's 3.5 s
