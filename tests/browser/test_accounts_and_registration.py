"""On a phone, in a real browser: an invited judge makes an account from the e-mailed link and
takes the role; a player asks to enter a weekend and is approved; another, past the capacity,
sees their place in line."""

import re
from datetime import date, timedelta

import pytest
from django.core import mail
from django.core.cache import caches

from tests.browser.conftest import log_in, screenshot
from tests.factories import EventFactory, UserFactory
from tournaments.models import Entry, EventRole, RegistrationChoice, RegistrationRequest
from tournaments.services.registrations import registration_request_create
from tournaments.services.waitlist import event_capacity_set
from tournaments.services.weekends import (
    weekend_create,
    weekend_event_add,
    weekend_event_remove,
    weekend_registration_set,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct horse battery"
NEW_PASSWORD = "double-run-of-three-8"


@pytest.fixture(autouse=True)
def fresh_limits():
    """allauth counts sign-ups and confirmation e-mails in the default cache, which outlives a
    test: another test's sign-up with the same address would hold back this one's e-mail."""
    caches["default"].clear()


def _link(message) -> str:
    return re.search(r"https?://[^/\s]+(/\S+)", message.body).group(1)


def _no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_an_invited_judge_makes_an_account_from_the_link_and_takes_the_role(open_page, live_server):
    director = UserFactory(username="dora", password=PASSWORD)
    event = EventFactory(director=director, name="Fall Main")
    page = open_page(f"{live_server.url}/")
    log_in(page, live_server, "dora", PASSWORD)
    page.goto(f"{live_server.url}/events/{event.pk}/manage/")
    page.get_by_label("Their e-mail address").fill("judy@example.org")
    page.locator("#invite_role").select_option("judge")
    page.get_by_role("button", name="E-mail the invitation").click()
    assert "e-mailed to judy@example.org" in page.get_by_role("status").inner_text()
    _no_sideways_scroll(page)
    invitation = _link(mail.outbox[-1])

    judy = open_page(f"{live_server.url}{invitation}")
    assert "Invitation to be judge" in judy.content()
    judy.get_by_role("link", name="Make an account").click()
    judy.get_by_label("Username").fill("judy")
    judy.get_by_label("Email").fill("judy@example.org")
    judy.get_by_label("Password:", exact=True).fill(NEW_PASSWORD)
    judy.get_by_label("Password (again)").fill(NEW_PASSWORD)
    screenshot(judy, "signup-phone")
    _no_sideways_scroll(judy)
    judy.get_by_role("button", name="Make my account").click()
    assert "Look in your e-mail" in judy.content()
    judy.goto(f"{live_server.url}{_link(mail.outbox[-1])}")
    judy.get_by_role("button", name="Confirm").click()
    judy.wait_for_url(f"{live_server.url}{invitation}")
    judy.get_by_role("button", name="Take the role: judge").click()
    assert "You are now judge of Fall Main" in judy.get_by_role("status").inner_text()
    assert EventRole.objects.filter(event=event, user__username="judy", role="judge").exists()


def test_a_registration_approved_and_one_waitlisted_on_a_phone(open_page, live_server):
    director = UserFactory(username="dora", password=PASSWORD)
    weekend = weekend_create(
        user=director, name="Fall Classic", starts_on=date.today() + timedelta(days=20)
    )
    main = EventFactory(director=director, name="Fall Main")
    weekend_event_add(weekend=weekend, event=main, user=director)
    event_capacity_set(event=main, user=director, capacity=1)
    weekend_registration_set(weekend=weekend, user=director, open=True)

    player = open_page(f"{live_server.url}/weekends/{weekend.pk}/register/", form_errors=True)
    player.get_by_label("Your name").fill("Margaret Doyle")
    player.get_by_label("ACC number (if you have one)").fill("NS100")
    player.get_by_role("button", name="Send my request").click()
    assert "Tick at least one event" in player.content()
    assert player.get_by_label("Your name").input_value() == "Margaret Doyle"  # kept
    player.get_by_label(re.compile("Fall Main")).check()
    player.get_by_role("button", name="Send my request").click()
    assert "Waiting for the director" in player.content()
    status_url = player.url
    _no_sideways_scroll(player)

    request = RegistrationRequest.objects.get(name="Margaret Doyle")
    desk = open_page(f"{live_server.url}/")
    log_in(desk, live_server, "dora", PASSWORD)
    desk.goto(f"{live_server.url}/weekends/{weekend.pk}/manage/")
    desk.locator(f"#request-{request.pk}").get_by_role("button", name="Approve").click()
    assert "request is approved" in desk.get_by_role("status").inner_text()
    _no_sideways_scroll(desk)
    player.goto(status_url)
    assert "Fall Main: Entered" in player.locator(".status-list").inner_text()
    assert Entry.objects.get(event=main).player.acc_number == "NS100"

    late = registration_request_create(
        weekend=weekend, name="Gerald MacLeod", acc_number="NS101", event_ids=[main.pk]
    )
    desk.goto(f"{live_server.url}/weekends/{weekend.pk}/manage/")
    desk.locator(f"#request-{late.pk}").get_by_role("button", name="Approve").click()
    waiting = open_page(f"{live_server.url}/registration/{late.token}/")
    assert "number 1 in line" in waiting.locator(".status-list").inner_text()
    assert RegistrationChoice.objects.get(request=late).status == "waitlisted"
    screenshot(waiting, "registration-waitlisted-phone")
    _no_sideways_scroll(waiting)


def test_a_request_for_an_event_taken_off_the_weekend_is_refused_with_the_way_on(
    open_page, live_server
):
    director = UserFactory(username="dora", password=PASSWORD)
    weekend = weekend_create(
        user=director, name="Fall Classic", starts_on=date.today() + timedelta(days=20)
    )
    main = EventFactory(director=director, name="Fall Main")
    satellite = EventFactory(director=director, name="Friday Satellite")
    for event in (main, satellite):
        weekend_event_add(weekend=weekend, event=event, user=director)
    weekend_registration_set(weekend=weekend, user=director, open=True)
    request = registration_request_create(
        weekend=weekend, name="Margaret Doyle", event_ids=[main.pk, satellite.pk]
    )
    weekend_event_remove(weekend=weekend, event=satellite, user=director)

    desk = open_page(f"{live_server.url}/", form_errors=True)
    log_in(desk, live_server, "dora", PASSWORD)
    desk.goto(f"{live_server.url}/weekends/{weekend.pk}/manage/")
    desk.locator(f"#request-{request.pk}").get_by_role("button", name="Approve").click()
    refusal = desk.get_by_role("alert").first.inner_text()
    assert "Friday Satellite is no longer part of Fall Classic" in refusal
    assert "Ask the player for a change" in refusal
    screenshot(desk, "registration-approve-refused")
    _no_sideways_scroll(desk)
    assert not Entry.objects.filter(player__name="Margaret Doyle").exists()
