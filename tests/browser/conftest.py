"""Headless Chromium through Playwright, launched from Debian's package (no browser downloads).

Without /usr/bin/chromium the browser tests skip with a reason, except in CI where they fail.
Screenshots go to test-artifacts/ at the repository root.
"""

import os
import shutil
from pathlib import Path

import pytest

from tests.conftest import IN_CI, REPO

CHROMIUM = os.environ.get("PEGBOARD_CHROMIUM", "/usr/bin/chromium")
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def browser():
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        if IN_CI:
            pytest.fail(f"Chromium is missing at {CHROMIUM}: .ci/run should install it")
        pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium to run browser tests)")
    # Playwright's sync API runs an event loop in this thread; Django must still allow the
    # test's own database calls made between page actions.
    from playwright.sync_api import sync_playwright

    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def open_page(browser):
    """Open pages at a given viewport; any console error or page error fails the test.

    ``form_errors=True`` lets the page answer 400, as a form does when it refuses bad input
    (the browser logs that status as a console error; the test checks the message itself).
    """
    contexts, errors = [], []

    def _open(url: str, *, width: int = 390, height: int = 844, form_errors: bool = False):
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        page = context.new_page()

        def console(message):
            refused_form = form_errors and "status of 400" in message.text
            if message.type == "error" and not refused_form:
                errors.append(f"{url}: {message.text}")

        page.on("console", console)
        page.on("pageerror", lambda e: errors.append(f"{url}: {e}"))
        page.goto(url)
        return page

    yield _open
    for context in contexts:
        context.close()
    assert not errors, "browser console errors:\n" + "\n".join(errors)


def screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture
def bracket_event(event_in_play):
    """``make(players)``: a published event past two qualifying games, one in four through
    to a bracket of best-of-3 matches, built through the services."""
    from tests.helpers import break_cut_ties, play_game
    from tournaments.models import Entry, Event, Game
    from tournaments.services.pairings import game_pairings_request, game_publish
    from tournaments.services.playoffs import playoff_build

    def make(players: int):
        event = event_in_play(
            players, qualifying_games=2, qualifier_ratio=4, playoff_best_of={"every": 3}
        )
        ids = Entry.objects.filter(event=event).order_by("pk").values_list("pk", flat=True)
        strength = {entry: i for i, entry in enumerate(ids)}
        play_game(event, 1, strength=strength)
        game_pairings_request(event=event, number=2, user=event.director)
        game_publish(game=Game.objects.get(event=event, number=2), user=event.director)
        play_game(event, 2, strength=strength)
        break_cut_ties(event)
        playoff_build(event_id=event.pk)
        Event.objects.filter(pk=event.pk).update(published=True)
        event.refresh_from_db()
        return event

    return make


def log_in(page, live_server, username: str, password: str) -> None:
    """Sign in through the login page, as a person would."""
    page.goto(f"{live_server.url}/accounts/login/")
    page.get_by_label("User name").fill(username)
    page.get_by_label("Password").fill(password)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live_server.url}/")


@pytest.fixture
def phone(browser):
    """A phone: one browser context at 390x844 (its service worker and IndexedDB shared by the
    pages opened in it); a script error fails the test. Failed loads while offline are expected
    and are not errors here."""
    contexts, errors = [], []

    def _new():
        context = browser.new_context(viewport={"width": 390, "height": 844})
        contexts.append(context)
        return context

    def _open(context, url: str):
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(f"{url}: {error}"))
        page.goto(url)
        # Once the worker controls the page, the page and its files are on the phone.
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        page.wait_for_function("async () => Boolean(await caches.match(location.pathname))")
        page.wait_for_function("() => window.ReportQueue !== undefined")
        return page

    yield _new, _open
    for context in contexts:
        context.close()
    assert not errors, "script errors:\n" + "\n".join(errors)
