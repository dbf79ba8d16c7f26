"""The player's playoff match when the venue's Wi-Fi fails (issue 25): its form goes through the
same phone queue as a qualifying game's report, in Chromium with Playwright's offline mode. A
match game reported offline survives a reload and is stored once when the network is back, and
is shown verified only once both cards agree on the server; a lost answer is sent again and
stored once; a refused report keeps its figures with the server's sentence; a game settled
without the phone's report is a conflict, never saved against the next game. Screenshots of
each state at 390x844."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.offline import STATUS, axe_check, go_offline, sync_state
from tournaments.models import Event, Match, MatchGame, MatchLine
from tournaments.models.idempotency import KeptAnswer
from tournaments.services.playoffs_corrections import match_game_correct
from tournaments.services.playoffs_matches import match_game_report

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _semi(bracket_event) -> Match:
    event = bracket_event(16)  # four through: two semi-finals, best of 3
    semi = Match.objects.get(playoff__event=event, round=1, slot=1)
    semi.director = event.director  # the event's director, made by event_in_play
    return semi


def _report(page, result: str, margin: int) -> str:
    """In the match's form: choose, type the margin, check it (the phone's words), save."""
    form = page.locator("form[data-offline-report=match]")
    form.get_by_text("I won" if result == "won" else "I lost", exact=True).click()
    form.get_by_label("By how many points (spread)?").fill(str(margin))
    form.get_by_role("button", name="Check my result").click()
    words = page.locator(".preview").inner_text()
    page.get_by_role("button", name="Save this result").click()
    return words


def _reported(entry) -> int:
    return MatchLine.objects.filter(entry=entry, kind=MatchLine.Kind.REPORTED).count()


def test_a_match_game_reported_offline_survives_a_reload_and_is_stored_once(
    phone, live_server, bracket_event
):
    semi = _semi(bracket_event)
    a, b = semi.entry_a, semi.entry_b
    new, open_ = phone
    context = new()
    page = open_(context, f"{live_server.url}/r/{a.report_token}/")
    assert page.locator("#match-heading").inner_text() == "Playoffs: Semi-finals"

    go_offline(context)
    words = _report(page, "won", 12)
    assert "A win by 12: 2 game points" in words  # worked out on the phone
    said = sync_state(page, "queued", pending=1)
    assert said.startswith("Saved on this phone, not sent yet.")
    queued = page.locator("#report-queue").inner_text()
    assert "Playoff game 1: I won by 12 (2 game points, plus 12)" in queued
    screenshot(page, "offline-match-saved-on-phone")

    page.reload()  # offline: the page with the match comes from the phone
    expect(page.locator("#match-heading")).to_have_text("Playoffs: Semi-finals")
    sync_state(page, "queued", pending=1)
    assert "No connection." in page.locator("#report-queue").inner_text()
    screenshot(page, "offline-match-reloaded")
    assert _reported(a) == 0

    context.set_offline(False)  # the "online" event sends it
    said = sync_state(page, "received", pending=0)
    assert said == f"Received by the server. Game 1 saved. Waiting for {b.name} to report it."
    # The page's own part follows what the server now holds: the report, the form folded away.
    page.locator(".playoff-match[data-match-state=waiting]").wait_for(timeout=10000)
    assert "Your report of game 1: 2 game points, plus 12." in page.locator("#live").inner_text()
    screenshot(page, "offline-match-received")
    assert _reported(a) == 1
    line = MatchLine.objects.get(entry=a, kind=MatchLine.Kind.REPORTED)
    assert (line.game_points, line.plus, line.minus) == (2, 12, 0)
    assert semi.games.get().status == MatchGame.Status.OPEN  # not verified: one card only

    match_game_report(match=semi, entry=b, won=False, spread=12)  # the opponent agrees
    page.evaluate("document.dispatchEvent(new CustomEvent('live:refresh'))")
    page.locator(".playoff-match[data-match-state=verified]").wait_for(timeout=10000)
    # Verified once the server says so: the page's own part shows it, then the queue follows.
    page.locator(STATUS, has_text="Both cards agree").wait_for(timeout=10000)
    said = page.locator(STATUS).inner_text()
    assert said == "Received by the server. Both cards agree: game 1 is verified, you won it."
    assert page.evaluate("ReportQueue.forToken(null)")[0]["state"] == "verified"
    screenshot(page, "offline-match-verified")
    assert _reported(a) == 1 and semi.games.get().status == MatchGame.Status.VERIFIED


def test_a_lost_answer_to_a_match_report_is_sent_again_and_stored_once(
    phone, live_server, bracket_event
):
    semi = _semi(bracket_event)
    a = semi.entry_a
    new, open_ = phone
    context = new()
    page = open_(context, f"{live_server.url}/r/{a.report_token}/")
    cut, network = [], {"up": False}

    def lose_the_answer(route):
        if network["up"]:
            route.continue_()
        elif not cut:  # the first time: the server stores it, the phone never hears back
            route.fetch()
            cut.append(route.request.headers["idempotency-key"])
            route.abort("connectionreset")
        else:
            route.abort("internetdisconnected")

    context.route("**/api/v1/report/*/match/", lose_the_answer)
    _report(page, "lost", 7)
    for _ in range(40):
        if cut:
            break
        page.wait_for_timeout(250)
    assert cut, "the match report went to the match's API route"
    sync_state(page, "queued", pending=1)
    assert _reported(a) == 1  # stored, the answer lost
    screenshot(page, "offline-match-answer-lost")

    network["up"] = True
    page.get_by_role("button", name="Send now").click()
    sync_state(page, "received", pending=0)
    assert _reported(a) == 1  # the same key: once
    assert KeptAnswer.objects.filter(key=cut[0]).count() == 1


def test_a_refused_match_report_keeps_its_figures_and_is_fixed_in_the_form(
    phone, live_server, bracket_event
):
    semi = _semi(bracket_event)
    a = semi.entry_a
    new, open_ = phone
    context = new()
    page = open_(context, f"{live_server.url}/r/{a.report_token}/")
    go_offline(context)
    _report(page, "won", 100)
    sync_state(page, "queued", pending=1)
    # Meanwhile the event turns out to be played to 61 (the director's settings were wrong).
    Event.objects.filter(pk=semi.playoff.event_id).update(
        target_score=61, skunk_margin=31, double_skunk_margin=None
    )
    context.set_offline(False)
    said = sync_state(page, "refused", pending=0)
    assert said == (
        "Not accepted: A spread is 1 to 61 (the target minus the loser's score), not 100."
    )
    kept = page.locator("#report-queue").inner_text()
    assert "Playoff game 1: I won by 100" in kept
    screenshot(page, "offline-match-refused")
    axe_check(page)
    assert _reported(a) == 0

    page.get_by_role("button", name="Fix these figures").click()
    form = page.locator("form[data-offline-report=match]")
    expect(form.get_by_label("By how many points (spread)?")).to_have_value("100")
    expect(form.get_by_text("I won", exact=True).locator("input")).to_be_checked()
    sync_state(page, "idle", pending=0)
    form.get_by_label("By how many points (spread)?").fill("10")
    form.get_by_role("button", name="Check my result").click()
    page.get_by_role("button", name="Save this result").click()
    sync_state(page, "received", pending=0)
    line = MatchLine.objects.get(entry=a, kind=MatchLine.Kind.REPORTED)
    assert (line.game_points, line.plus) == (2, 10)


def test_a_match_game_settled_without_the_phones_report_is_a_conflict(
    phone, live_server, bracket_event
):
    semi = _semi(bracket_event)
    a, b = semi.entry_a, semi.entry_b
    new, open_ = phone
    context = new()
    page = open_(context, f"{live_server.url}/r/{a.report_token}/")
    go_offline(context)
    _report(page, "won", 15)
    sync_state(page, "queued", pending=1)
    # Meanwhile: the opponent reports game 1 and the director settles it from the paper card.
    match_game_report(match=semi, entry=b, won=False, spread=25)
    director = semi.director
    game = semi.games.get(number=1)
    match_game_correct(
        match_game=game, winner_entry=a, spread=25, reason="the paper card", user=director
    )
    assert semi.games.get(number=1).status == MatchGame.Status.VERIFIED

    context.set_offline(False)
    said = sync_state(page, "conflict", pending=0)
    assert said.startswith("This phone and the card on the server differ: please see the director.")
    assert "game 2 is the one in play now" in said
    assert "Playoff game 1: I won by 15" in page.locator("#report-queue").inner_text()
    screenshot(page, "offline-match-conflict")
    axe_check(page)
    assert _reported(a) == 0  # not saved against game 2
    assert not semi.games.filter(number=2).exists()
    page.get_by_role("button", name="I have seen the director: remove it from this phone").click()
    sync_state(page, "idle", pending=0)
