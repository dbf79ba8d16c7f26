"""When the phone's queue sends (issue 25 item 2), in Chromium: a send the network never
answers is given up and tried again with its key; without Background Sync (iOS Safari and
Firefox have none) a waiting report is sent by the page itself when it is opened, when it is
shown again and every 30 s while anything waits.

The browser's Background Sync is taken away from the page here (``_no_background_sync``), so
what sends a report is the page's own trigger under test. The page's timers follow the test's
clock (Playwright's ``clock``), so the 15 s and 30 s waits take no time."""

import pytest

from tests.browser.conftest import screenshot
from tests.browser.offline import sync_state
from tournaments.models import CardLine, Event, Table
from tournaments.models.idempotency import KeptAnswer

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REPORTS = "**/api/v1/report/**"


def _table(event):
    Event.objects.filter(pk=event.pk).update(published=True)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    return (seat.entry for seat in table.seats.order_by("position"))


def _lines(entry) -> int:
    return CardLine.objects.filter(seat__entry=entry, kind=CardLine.Kind.REPORTED).count()


def _report(page, result: str, margin: int) -> None:
    page.get_by_text("I won" if result == "won" else "I lost", exact=True).click()
    page.get_by_label("By how many points (spread)?").fill(str(margin))
    page.get_by_role("button", name="Check my result").click()
    page.get_by_role("button", name="Save this result").click()


def _no_background_sync(context) -> None:
    """The page sees no Background Sync, as on iOS Safari and Firefox."""
    context.add_init_script(
        "if (self.ServiceWorkerRegistration) Object.defineProperty("
        "ServiceWorkerRegistration.prototype, 'sync', {get: () => undefined, configurable: true});"
    )


def _refused(page, tries: list, *tokens: str) -> None:
    """Wait until the refusing route has answered a send of each token. Playwright runs a
    route's handler only while the test calls into it: a send caught just before ``unroute``
    but handled after it finds no handler and goes on to the server."""
    for _ in range(100):
        if all(any(token in url for url in tries) for token in tokens):
            return
        page.wait_for_timeout(100)
    raise AssertionError(f"no refused send for each of {tokens}: {tries}")


def _settle(page, ms: int = 1500) -> None:
    """Real time for a send the page would make (nothing should happen in it)."""
    page.wait_for_timeout(ms)


def test_a_send_the_network_never_answers_is_given_up_and_sent_again_once(
    phone, live_server, event_in_play
):
    new, open_ = phone
    winner, loser = _table(event_in_play(10))
    context = new()
    _no_background_sync(context)
    context.clock.install()
    page = open_(context, f"{live_server.url}/r/{winner.report_token}/")
    held = []
    context.route(REPORTS, lambda route: held.append(route))  # no answer, no error
    _report(page, "won", 35)
    sync_state(page, "sending", pending=1)
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert len(held) == 1

    page.clock.fast_forward(16_000)  # the phone waits 15 s for an answer, then keeps it
    said = sync_state(page, "queued", pending=1)
    assert said.startswith("Saved on this phone, not sent yet.")
    screenshot(page, "offline-no-answer-kept")
    # The request had reached the server after all: it is stored once, under its key.
    held[0].fetch()
    assert _lines(winner) == 1
    key = held[0].request.headers["idempotency-key"]

    context.unroute(REPORTS)
    page.get_by_role("button", name="Send now").click()
    said = sync_state(page, "received", pending=0)
    assert said == f"Received by the server. Saved. Waiting for {loser.name} to report."
    assert _lines(winner) == 1
    assert KeptAnswer.objects.filter(key=key).count() == 1


def test_without_background_sync_the_page_sends_on_opening(phone, live_server, event_in_play):
    new, open_ = phone
    winner, loser = _table(event_in_play(10))
    context = new()
    _no_background_sync(context)
    url = f"{live_server.url}/r/{winner.report_token}/"
    page = open_(context, url)
    # The server cannot be reached (not Playwright's offline mode: a page leaving while in it
    # is let through for a moment, and would send its report then).
    tries = []

    def unreachable(route):
        tries.append(route.request.url)
        route.abort("connectionrefused")

    context.route(REPORTS, unreachable)
    _report(page, "won", 20)
    sync_state(page, "queued", pending=1)
    _refused(page, tries, winner.report_token)
    page.goto("about:blank")  # the player leaves the page
    _settle(page, 300)  # a send caught as the page left is refused too
    context.unroute(REPORTS)  # the server answers again: no player's page is open to send
    _settle(page)
    assert _lines(winner) == 0

    page = open_(context, url)
    sync_state(page, "received", pending=0)
    assert _lines(winner) == 1


def test_without_background_sync_the_page_sends_when_shown_again_and_every_30_s(
    phone, live_server, event_in_play
):
    new, open_ = phone
    winner, loser = _table(event_in_play(10))
    context = new()
    _no_background_sync(context)
    context.clock.install()
    mine = open_(context, f"{live_server.url}/r/{winner.report_token}/")
    theirs = open_(context, f"{live_server.url}/r/{loser.report_token}/")
    mine.clock.pause_at(mine.evaluate("Date.now()") + 1000)  # the page's timers wait for the test
    tries = []

    def unreachable(route):  # the Wi-Fi is up, the server cannot be reached
        tries.append(route.request.url)
        route.abort("connectionrefused")

    context.route(REPORTS, unreachable)
    _report(mine, "won", 20)
    _report(theirs, "lost", 20)
    sync_state(mine, "queued", pending=1)
    sync_state(theirs, "queued", pending=1)
    _refused(mine, tries, winner.report_token, loser.report_token)
    context.unroute(REPORTS)  # the server answers again; nothing tells the pages so
    _settle(mine)
    assert _lines(winner) == _lines(loser) == 0

    # The player comes back to the page (it was behind another app).
    mine.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    sync_state(mine, "received", pending=0)
    assert (_lines(winner), _lines(loser)) == (1, 0)

    # Nobody touches the other page: its 30 s round sends it.
    context.route(REPORTS, unreachable)
    for _ in range(3):  # while the server cannot be reached, a try in each 30 s
        before = len(tries)
        theirs.clock.run_for(30_000)
        for _ in range(30):
            if len(tries) > before:
                break
            theirs.wait_for_timeout(100)
        assert len(tries) > before
        sync_state(theirs, "queued", pending=1)
    context.unroute(REPORTS)
    theirs.clock.run_for(30_000)
    sync_state(theirs, "received", pending=0)
    assert (_lines(winner), _lines(loser)) == (1, 1)
