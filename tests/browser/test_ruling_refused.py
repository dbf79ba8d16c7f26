"""A refused ruling on a phone: the error summary is at the top of the page and has the focus,
so a judge sees what to fix without scrolling past the whole form (issue 22 item 8)."""

import pytest

from tests.browser.conftest import log_in, screenshot
from tests.factories import UserFactory
from tournaments.models import EventRole, Ruling

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct horse battery"


def test_a_refused_ruling_shows_and_focuses_its_errors_first(open_page, live_server, event_in_play):
    event = event_in_play(10, judges_per_ruling=2)
    judy = UserFactory(username="jjones", first_name="Judy", last_name="Jones")
    judy.set_password(PASSWORD)
    judy.save()
    EventRole.objects.create(event=event, user=judy, role=EventRole.Role.JUDGE)
    bob = UserFactory(username="bbrown", first_name="Bob", last_name="Brown")
    EventRole.objects.create(event=event, user=bob, role=EventRole.Role.JUDGE)

    judge = open_page(f"{live_server.url}/", form_errors=True)
    log_in(judge, live_server, "jjones", PASSWORD)
    judge.goto(f"{live_server.url}/events/{event.pk}/games/1/tables/1/ruling/")
    judge.get_by_text("Renege").first.click()
    judge.locator("input[name=offender]").first.check()
    judge.get_by_label("Offender's score now").fill("70")
    judge.get_by_label("Opponent's score now").fill("64")
    judge.get_by_label("Cards reneged").fill("1")
    judge.get_by_text("Judy Jones", exact=True).click()  # one judge where two are needed
    judge.get_by_role("button", name="Check the ruling").click()

    summary = judge.locator("#error-summary")
    assert "two judges" in summary.inner_text()
    assert judge.evaluate("document.activeElement.id") == "error-summary"
    box = summary.bounding_box()
    screenshot(judge, "ruling-refused-phone")
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
    summary.get_by_role("link", name="Judges").click()
    assert judge.locator("#id_judges_error").is_visible()
    assert not Ruling.objects.exists()
