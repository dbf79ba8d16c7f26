"""Every kind of page works under the Content-Security-Policy: the pages of the demo weekend,
the player's keypad, the judges' self-refreshing list, the charts, the admin and the API docs.
A blocked script or style is a console error, which fails the test (see ``open_page``)."""

import pytest
from django.test import Client

from tests.browser.conftest import screenshot
from tournaments.demo import demo_director, demo_events_build
from tournaments.models import Club, Entry, Event, MrpAward

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def demo():
    director, _ = demo_director()
    director.is_staff = director.is_superuser = True
    director.save()
    demo_events_build(director=director)
    client = Client()
    client.force_login(director)
    return director, client.cookies["sessionid"].value


def _signed_in(open_page, live_server, session: str, path: str, **size):
    page = open_page("about:blank", **size)
    page.context.add_cookies([{"name": "sessionid", "value": session, "url": live_server.url}])
    response = page.goto(live_server.url + path)
    assert response.status == 200, path
    policy = response.headers.get("content-security-policy", "")
    scripts = next(part for part in policy.split(";") if part.strip().startswith("script-src"))
    assert scripts.strip() == "script-src 'self'", path
    return page


def test_pages_work_under_the_policy(open_page, live_server, demo):
    director, session = demo
    main = Event.objects.filter(finalised_at__isnull=False).first()
    playing = Event.objects.exclude(pk=main.pk).filter(stage="qualifying").first() or main
    player = MrpAward.objects.filter(current=True).first().player
    club = Club.objects.first()
    paths = [
        "/",
        f"/events/{main.pk}/",
        f"/events/{main.pk}/manage/",
        f"/events/{main.pk}/standings/",
        f"/events/{main.pk}/judges/",
        f"/events/{main.pk}/results/",
        f"/events/{main.pk}/history/",
        f"/events/{playing.pk}/manage/",
        f"/players/{player.pk}/",
        "/players/",
        f"/clubs/{club.pk}/",
        "/ratings/",
        "/admin/",
    ]
    for path in paths:
        _signed_in(open_page, live_server, session, path)

    # The player's keypad is a script: it shows itself and types into the margin.
    entry = Entry.objects.filter(event=playing).first()
    page = open_page(f"{live_server.url}/r/{entry.report_token}/")
    if page.locator(".keypad").count():
        assert page.locator(".keypad").is_visible()

    # The judges' calls are a live part: its script polls it (a 304 while nothing changes).
    judges = _signed_in(open_page, live_server, session, f"/events/{main.pk}/judges/")
    with judges.expect_response(lambda r: "part=live" in r.url, timeout=10000) as polled:
        pass
    assert polled.value.status in (200, 304)

    # A player's charts load as images, and the image itself allows the chart's own styles.
    charts = _signed_in(open_page, live_server, session, f"/players/{player.pk}/")
    for image in charts.locator("img.chart").all():
        assert image.evaluate("i => i.complete && i.naturalWidth > 0")

    # The API docs (Swagger UI) draw every operation.
    docs = _signed_in(open_page, live_server, session, "/api/docs/", width=1920, height=1080)
    docs.wait_for_selector(".opblock", timeout=20000)
    assert docs.locator(".opblock").count() > 50
    screenshot(docs, "api-docs-under-csp")
