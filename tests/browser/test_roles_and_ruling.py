"""A director gives the judge role from the manage page, and the judge records a ruling with
it, in a real browser at phone width."""

import pytest

from tests.browser.conftest import log_in, screenshot
from tests.factories import UserFactory
from tournaments.models import AuditEntry, EventRole, Ruling

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct horse battery"


def _log_in(page, live_server, username):
    log_in(page, live_server, username, PASSWORD)


def _no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_judge_role_given_on_the_manage_page_records_a_ruling(
    open_page, live_server, event_in_play
):
    event = event_in_play(10)
    event.director.set_password(PASSWORD)
    event.director.save()
    UserFactory(username="jjones", first_name="Judy", last_name="Jones")
    UserFactory(username="bbrown", first_name="Bob", last_name="Brown")

    director = open_page(f"{live_server.url}/")
    _log_in(director, live_server, event.director.username)
    director.goto(f"{live_server.url}/events/{event.pk}/manage/")
    assert "<" not in director.title()
    roles = director.locator("section", has=director.get_by_role("heading", name="Directors"))
    for person in ("Judy Jones", "bbrown"):
        roles.get_by_label("Person").fill(person)
        roles.get_by_label("Role").select_option("judge")
        roles.get_by_role("button", name="Give the role").click()
    assert "Bob Brown is now judge" in director.get_by_role("status").inner_text()
    listed = director.locator(".role-list").inner_text()
    assert "Judy Jones · Judge" in listed and "Bob Brown · Judge" in listed
    screenshot(director, "manage-roles-phone")
    _no_sideways_scroll(director)

    judge = open_page(f"{live_server.url}/")
    judy = EventRole.objects.get(event=event, role="judge", user__username="jjones").user
    judy.set_password(PASSWORD)
    judy.save()
    _log_in(judge, live_server, "jjones")
    judge.goto(f"{live_server.url}/events/{event.pk}/games/1/tables/1/ruling/")
    judge.get_by_text("Renege").first.click()
    offender = judge.locator("input[name=offender]").first
    offender.check()
    judge.get_by_label("Offender's score now").fill("70")
    judge.get_by_label("Opponent's score now").fill("64")
    judge.get_by_label("Cards reneged").fill("1")
    for name in ("Judy Jones", "Bob Brown"):
        judge.get_by_text(name, exact=True).click()
    judge.get_by_role("button", name="Check the ruling").click()
    assert "64 → 66" in judge.locator(".preview").inner_text()
    screenshot(judge, "ruling-preview-phone")
    judge.get_by_role("button", name="Save this ruling").click()
    assert "Ruling saved" in judge.get_by_role("status").first.inner_text()
    _no_sideways_scroll(judge)

    ruling = Ruling.objects.get()
    assert sorted(ruling.judges.values_list("username", flat=True)) == ["bbrown", "jjones"]
    assert ruling.entered_by == judy
    assert AuditEntry.objects.filter(action="ruling_record", actor=judy).count() == 1
    assert AuditEntry.objects.filter(action="event_role_grant").count() == 2
