"""The player's page when the venue's Wi-Fi fails (issue 25), in Chromium with Playwright's
offline mode: a report made offline is kept on the phone and stored once when the network is
back; a lost answer is sent again and stored once; two links on one phone keep their reports
apart; a refused report keeps its figures and shows the server's sentence; a table settled
without the phone's report is a conflict. Screenshots of each state at 390x844."""

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import screenshot
from tests.browser.offline import STATUS, axe_check, go_offline, sync_state
from tournaments.models import CardLine, Event, Table
from tournaments.models.idempotency import KeptAnswer
from tournaments.services.results import game_close

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _report(page, result: str, margin: int) -> str:
    """Choose, type the margin, check it: the phone's preview words; then save."""
    page.get_by_text("I won" if result == "won" else "I lost", exact=True).click()
    page.get_by_label("By how many points (spread)?").fill(str(margin))
    page.get_by_role("button", name="Check my result").click()
    words = page.locator(".preview").inner_text()
    page.get_by_role("button", name="Save this result").click()
    return words


def _table(event):
    Event.objects.filter(pk=event.pk).update(published=True)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    winner, loser = (seat.entry for seat in table.seats.order_by("position"))
    return table, winner, loser


def _lines(entry) -> int:
    return CardLine.objects.filter(seat__entry=entry, kind=CardLine.Kind.REPORTED).count()


def test_a_report_made_offline_survives_a_reload_and_is_stored_once(
    phone, live_server, event_in_play
):
    new, open_ = phone
    table, winner, loser = _table(event_in_play(10))
    context = new()
    page = open_(context, f"{live_server.url}/r/{winner.report_token}/")

    go_offline(context)
    words = _report(page, "won", 35)
    assert "skunk" in words and "3 game points" in words  # worked out on the phone
    said = sync_state(page, "queued", pending=1)
    assert said.startswith("Saved on this phone, not sent yet.")
    assert (
        "Game 1: I won by 35 (3 game points, plus 35)" in page.locator("#report-queue").inner_text()
    )
    screenshot(page, "offline-saved-on-phone")

    page.reload()  # offline: the page and its scripts come from the phone
    assert page.locator("h1").inner_text() == winner.name
    sync_state(page, "queued", pending=1)
    assert "No connection." in page.locator("#report-queue").inner_text()
    screenshot(page, "offline-reloaded")
    assert _lines(winner) == 0

    context.set_offline(False)  # the "online" event sends it
    said = sync_state(page, "received", pending=0)
    assert said == f"Received by the server. Saved. Waiting for {loser.name} to report."
    assert "verified" not in said.lower()
    page.locator(".state", has_text="Waiting for").wait_for()
    screenshot(page, "offline-received")
    assert _lines(winner) == 1
    line = CardLine.objects.get(seat__entry=winner, kind=CardLine.Kind.REPORTED)
    assert (line.game_points, line.plus, line.minus) == (3, 35, 0)


def test_an_answer_lost_on_the_way_back_is_sent_again_and_stored_once(
    phone, live_server, event_in_play
):
    new, open_ = phone
    table, winner, loser = _table(event_in_play(10))
    context = new()
    page = open_(context, f"{live_server.url}/r/{winner.report_token}/")
    cut, network = [], {"up": False}

    def lose_the_answer(route):
        if network["up"]:
            route.continue_()
        elif not cut:  # the first time: the server stores it, the phone never hears back
            route.fetch()
            cut.append(route.request.headers["idempotency-key"])
            route.abort("connectionreset")
        else:  # then the network stays down until the test says
            route.abort("internetdisconnected")

    context.route("**/api/v1/report/**", lose_the_answer)
    _report(page, "lost", 12)
    for _ in range(40):
        if cut:
            break
        page.wait_for_timeout(250)
    assert cut and _lines(loser) == 0
    sync_state(page, "queued", pending=1)
    assert CardLine.objects.filter(seat__entry=winner).count() == 1  # stored, answer lost
    screenshot(page, "offline-answer-lost")

    network["up"] = True
    page.get_by_role("button", name="Send now").click()
    sync_state(page, "received", pending=0)
    assert CardLine.objects.filter(seat__entry=winner).count() == 1  # the same key: once
    assert KeptAnswer.objects.filter(key=cut[0]).count() == 1


def test_two_players_reports_on_one_phone_stay_apart(phone, live_server, event_in_play):
    new, open_ = phone
    table, winner, loser = _table(event_in_play(10))
    context = new()  # one phone, passed across the table
    mine = open_(context, f"{live_server.url}/r/{winner.report_token}/")
    theirs = open_(context, f"{live_server.url}/r/{loser.report_token}/")

    go_offline(context)
    _report(mine, "won", 20)
    sync_state(mine, "queued", pending=1)
    _report(theirs, "lost", 20)
    sync_state(theirs, "queued", pending=1)
    mine.reload()
    sync_state(mine, "queued", pending=1)  # its own report only, not the opponent's
    assert "I won by 20" in mine.locator("#report-queue").inner_text()
    assert "I lost" not in mine.locator("#report-queue").inner_text()
    assert "I lost by 20" in theirs.locator("#report-queue").inner_text()
    screenshot(theirs, "offline-two-links-one-phone")

    context.set_offline(False)
    sync_state(mine, "received", pending=0)
    sync_state(theirs, "received", pending=0)
    assert _lines(winner) == 1 and _lines(loser) == 1
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED
    # Verified once the server says so: the page's own part shows it, then the queue follows.
    theirs.locator(".state-verified").wait_for(timeout=10000)
    theirs.locator(STATUS, has_text="Both cards agree").wait_for(timeout=10000)
    assert "Both cards agree" in theirs.locator(STATUS).inner_text()
    screenshot(theirs, "offline-verified")


def test_clearing_the_phone_is_refused_while_reports_wait_unless_confirmed(
    phone, live_server, event_in_play
):
    new, open_ = phone
    table, winner, loser = _table(event_in_play(10))
    context = new()
    page = open_(context, f"{live_server.url}/r/{winner.report_token}/")
    go_offline(context)
    _report(page, "won", 9)
    sync_state(page, "queued", pending=1)
    page.get_by_role("button", name="Clear this phone's saved reports").click()
    warning = page.locator("#report-queue [role=alert]").inner_text()
    assert "not reached the server yet" in warning and "lost" in warning
    sync_state(page, "queued", pending=1)  # nothing cleared yet
    screenshot(page, "offline-clear-asks-first")
    axe_check(page)
    page.get_by_role("button", name="Keep it").click()  # one report waits
    sync_state(page, "queued", pending=1)
    page.get_by_role("button", name="Clear this phone's saved reports").click()
    page.get_by_role("button", name="Yes, delete the unsent report").click()
    sync_state(page, "idle", pending=0)
    assert page.evaluate("ReportQueue.forToken(null)") == []
    context.set_offline(False)
    assert _lines(winner) == 0


def test_a_refused_report_keeps_its_figures_and_shows_the_servers_sentence(
    phone, live_server, event_in_play
):
    new, open_ = phone
    event = event_in_play(10)
    table, winner, loser = _table(event)
    context = new()
    page = open_(context, f"{live_server.url}/r/{winner.report_token}/")
    go_offline(context)
    _report(page, "won", 44)
    sync_state(page, "queued", pending=1)
    # Meanwhile the director closes the game: a late report is the cross-checker's now.
    game_close(game=table.game, user=event.director)

    context.set_offline(False)
    said = sync_state(page, "refused", pending=0)
    assert said == "Not accepted: Game 1 is closed; a cross-checker will settle your table."
    kept = page.locator("#report-queue").inner_text()
    assert "Game 1: I won by 44 (3 game points, plus 44)" in kept
    screenshot(page, "offline-refused")
    axe_check(page)
    assert _lines(winner) == 0
    # No form to fix them in (the game is closed): the player takes them to the director.
    page.get_by_role("button", name="I have told the director: remove it from this phone").click()
    sync_state(page, "idle", pending=0)


def test_a_refused_report_is_fixed_in_the_form_and_sent_again(phone, live_server, event_in_play):
    new, open_ = phone
    table, winner, loser = _table(event_in_play(10))
    context = new()
    page = open_(context, f"{live_server.url}/r/{winner.report_token}/")
    go_offline(context)
    _report(page, "won", 100)
    sync_state(page, "queued", pending=1)
    # Meanwhile the event turns out to be played to 61 (the director's settings were wrong).
    Event.objects.filter(pk=table.game.event_id).update(
        target_score=61, skunk_margin=31, double_skunk_margin=None
    )
    context.set_offline(False)
    said = sync_state(page, "refused", pending=0)
    assert said == (
        "Not accepted: A spread is 1 to 61 (the target minus the loser's score), not 100."
    )
    page.get_by_role("button", name="Fix these figures").click()
    expect(page.get_by_label("By how many points (spread)?")).to_have_value("100")
    expect(page.get_by_text("I won", exact=True).locator("input")).to_be_checked()
    sync_state(page, "idle", pending=0)  # the figures left the phone's list for the form
    screenshot(page, "offline-fixing")
    page.get_by_label("By how many points (spread)?").fill("10")
    page.get_by_role("button", name="Check my result").click()
    page.get_by_role("button", name="Save this result").click()
    sync_state(page, "received", pending=0)
    line = CardLine.objects.get(seat__entry=winner, kind=CardLine.Kind.REPORTED)
    assert (line.game_points, line.plus) == (2, 10)


def test_a_table_settled_without_the_phones_report_is_a_conflict(phone, live_server, event_in_play):
    from tournaments.services.corrections import table_paper_line_enter

    new, open_ = phone
    event = event_in_play(10)
    table, winner, loser = _table(event)
    context = new()
    page = open_(context, f"{live_server.url}/r/{winner.report_token}/")
    go_offline(context)
    _report(page, "won", 15)
    sync_state(page, "queued", pending=1)
    director = event.director
    for position, won in ((1, True), (2, False)):  # the paper cards say 25, not 15
        table_paper_line_enter(table=table, position=position, won=won, spread=25, user=director)
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED

    context.set_offline(False)
    said = sync_state(page, "conflict", pending=0)
    assert said.startswith("This phone and the card on the server differ: please see the director.")
    assert "already verified" in said
    assert "Game 1: I won by 15" in page.locator("#report-queue").inner_text()
    screenshot(page, "offline-conflict")
    axe_check(page)
    page.get_by_role("button", name="I have seen the director: remove it from this phone").click()
    sync_state(page, "idle", pending=0)


def test_the_states_while_sending_and_the_phones_preview(phone, live_server, event_in_play):
    new, open_ = phone
    table, winner, loser = _table(event_in_play(10))
    context = new()
    page = open_(context, f"{live_server.url}/r/{winner.report_token}/")
    held = []
    context.route("**/api/v1/report/**", lambda route: held.append(route))
    go_offline(context)
    page.get_by_text("I lost", exact=True).click()
    page.get_by_label("By how many points (spread)?").fill("70")
    page.get_by_role("button", name="Check my result").click()
    preview = page.locator(".preview").inner_text()
    assert "A loss by 70 is a double skunk against you: 0 game points" in preview
    screenshot(page, "offline-preview")
    page.get_by_role("button", name="Save this result").click()
    sync_state(page, "queued", pending=1)
    context.set_offline(False)
    said = sync_state(page, "sending", pending=1)
    assert said == "Sending your report…"
    screenshot(page, "offline-sending")
    for _ in range(50):  # the held request reaches the route (Playwright calls dispatch it)
        if held:
            break
        page.wait_for_timeout(100)
    assert held  # the page's send (the worker's Background Sync may send the same key too)
    for route in held:
        route.continue_()
    context.unroute("**/api/v1/report/**")
    sync_state(page, "received", pending=0)
    assert _lines(winner) == 1


def test_a_signed_in_players_report_carries_the_csrf_token(phone, live_server, event_in_play):
    """DRF checks CSRF for a session that is signed in: the queue sends the page's token."""
    from django.test import Client

    from tests.factories import UserFactory

    new, open_ = phone
    table, winner, loser = _table(event_in_play(10))
    client = Client()
    client.force_login(UserFactory())
    context = new()
    session = client.cookies["sessionid"].value
    context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])
    page = open_(context, f"{live_server.url}/r/{winner.report_token}/")
    assert page.locator("button", has_text="Log out").count() == 1
    _report(page, "won", 30)
    sync_state(page, "received", pending=0)
    assert _lines(winner) == 1


def test_background_sync_sends_a_report_after_the_page_was_closed(
    phone, live_server, event_in_play
):
    """Chromium has Background Sync: the worker sends what waits with no page open."""
    new, open_ = phone
    table, winner, loser = _table(event_in_play(10))
    context = new()
    page = open_(context, f"{live_server.url}/r/{winner.report_token}/")
    go_offline(context)
    _report(page, "won", 35)
    sync_state(page, "queued", pending=1)
    elsewhere = context.new_page()  # the phone shows something else; the player's page is shut
    page.close()
    context.set_offline(False)
    for _ in range(40):
        if _lines(winner):
            break
        elsewhere.wait_for_timeout(250)
    assert _lines(winner) == 1


def test_a_late_answer_never_takes_a_report_back(phone, live_server, event_in_play):
    """Two senders of one report (the page and the worker's Background Sync, or two tabs): the
    later one's answer is the server's first answer again ("waiting"), and its arrival must not
    undo what the page learnt meanwhile (verified), nor put a report the server holds back to
    "saved on this phone" when that sender found no network."""
    new, open_ = phone
    table, winner, loser = _table(event_in_play(10))
    page = open_(new(), f"{live_server.url}/r/{winner.report_token}/")
    steps = page.evaluate(
        """async (token) => {
        const q = window.ReportQueue;
        const base = {key: "k-1", token, kind: "report", made_at: 1, words: ""};
        const said = [];
        const step = async (state) => said.push((await q.advance({...base, state})).state);
        await q.put({...base, state: "saved"});
        for (const state of ["sending", "received", "verified", "received", "saved", "sending"]) {
            await step(state);
        }
        const other = {...base, key: "k-2", made_at: 2};
        await q.put({...other, state: "received"});
        said.push((await q.advance({...other, state: "conflict"})).state);
        said.push((await q.advance({...other, state: "verified"})).state);
        const kept = await q.forToken(token);
        await q.clearToken(token);
        return {said, kept: kept.map((r) => r.state)};
    }""",
        winner.report_token,
    )
    assert steps["said"] == [
        "sending",
        "received",
        "verified",
        "verified",
        "verified",
        "verified",
        "conflict",
        "conflict",
    ]
    assert steps["kept"] == ["verified", "conflict"]
