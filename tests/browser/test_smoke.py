"""The home page in a real browser, at phone and desktop width."""

import pytest

from tests.browser.conftest import screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("label", "width", "height"), [("phone", 390, 844), ("desktop", 1280, 900)]
)
def test_home_page_reads_well(open_page, live_server, label, width, height):
    page = open_page(live_server.url + "/", width=width, height=height)
    assert page.title() == "Home · Pegboard"
    assert page.locator("h1").inner_text() == "Pegboard"
    # Nothing wider than the screen: no sideways scrolling on a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    # Large type for players in their 60s and 70s.
    size = page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)")
    assert size >= 18
    login = page.get_by_role("link", name="Log in").first
    box = login.bounding_box()
    assert box and box["height"] >= 44, "touch targets must be at least 44 px high"
    assert screenshot(page, f"home-{label}").stat().st_size > 0


def test_keyboard_user_can_skip_to_content_and_log_in(open_page, live_server, django_user_model):
    django_user_model.objects.create_user("td", password="correct horse battery")
    page = open_page(live_server.url + "/", width=1280, height=900)
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to the content"
    page.get_by_role("link", name="Log in").first.click()
    page.get_by_label("User name").fill("td")
    page.get_by_label("Password").fill("correct horse battery")
    page.keyboard.press("Enter")
    page.wait_for_url(live_server.url + "/")
    assert page.get_by_role("button", name="Log out td").is_visible()
