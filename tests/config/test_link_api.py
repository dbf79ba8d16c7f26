"""The phones' report API through the lighter Django handler (``config.link_api``), as gunicorn
serves it (``config.wsgi``): a report is saved and answered as through the site's handler, with
HTTPS, the security headers, the guard against guessed links and the phone heard; a request for
HTML, one with a host Django refuses and every other path get the site's full handler."""

import json

import pytest
from django.conf import settings
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from config.link_api import LINK_MIDDLEWARE, LinkApiHandler, link_api
from tests.helpers import wsgi_call
from tournaments.heard import heard_many
from tournaments.models import CardLine, Table

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("keep_the_tests_connection")]

KEY = "4a1f0c2e-9b7d-4e31-8f65-2c0d9a7e5b13"
JSON = {"CONTENT_TYPE": "application/json", "HTTP_ACCEPT": "*/*"}
# A header only the site's full handler sends (django-csp): how a test tells the two apart.
CSP = "Content-Security-Policy"


@pytest.fixture
def seats(event_in_play):
    table = Table.objects.get(game__event=event_in_play(10), game__number=1, number=1)
    return table, [seat.entry for seat in table.seats.select_related("entry").order_by("position")]


def _report(token, result="won", margin=12, **extra):
    body = json.dumps({"result": result, "margin": margin}).encode()
    return wsgi_call("POST", f"/api/v1/report/{token}/", body=body, headers={**JSON, **extra})


def test_a_report_is_saved_and_answered_through_the_light_handler(seats):
    table, (winner, loser) = seats
    status, headers, body = _report(winner.report_token)
    assert status == 201, body[:300]
    assert CSP not in headers  # the light handler's answer
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == settings.SECURE_REFERRER_POLICY
    assert headers["Content-Type"] == "application/json"
    assert "Set-Cookie" not in headers  # no session, no CSRF cookie
    said = json.loads(body)
    assert said["state"] == "waiting" and said["verified"] is False
    status, _, body = _report(loser.report_token, "lost", 12, HTTP_IDEMPOTENCY_KEY=KEY)
    assert status == 201 and json.loads(body)["verified"] is True
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED
    lines = CardLine.objects.filter(seat__table=table, kind=CardLine.Kind.REPORTED)
    assert lines.count() == 2
    # Sent again with its key: the first answer, nothing written.
    again = _report(loser.report_token, "lost", 12, HTTP_IDEMPOTENCY_KEY=KEY)
    assert again[0] == 201 and json.loads(again[2])["verified"] is True
    assert lines.count() == 2
    # The phones were heard.
    assert set(heard_many(tokens=[winner.report_token, loser.report_token])) == {
        winner.report_token,
        loser.report_token,
    }


def test_the_light_handler_answers_as_the_site_handler_does(seats):
    """The same report's answer by both handlers: the body and its statements are the view's."""
    table, (winner, _) = seats
    with CaptureQueriesContext(connection) as light:
        status, headers, body = wsgi_call(
            "GET", f"/api/v1/report/{winner.report_token}/", headers=JSON
        )
    assert status == 200 and CSP not in headers
    with CaptureQueriesContext(connection) as site:
        status, headers, site_body = wsgi_call(
            "GET", f"/api/v1/report/{winner.report_token}/", headers={"HTTP_ACCEPT": "text/html"}
        )
    assert status == 200 and CSP in headers  # DRF's browsable page, from the site's handler
    assert json.loads(body)["current"]["game"] == 1
    assert len(light.captured_queries) <= len(site.captured_queries)


def test_html_a_refused_host_and_other_paths_get_the_site_handler(seats):
    _, (winner, _) = seats
    path = f"/api/v1/report/{winner.report_token}/"
    assert link_api({"PATH_INFO": path, "HTTP_HOST": "testserver", "HTTP_ACCEPT": "*/*"})
    assert not link_api({"PATH_INFO": path, "HTTP_HOST": "testserver", "HTTP_ACCEPT": "text/html"})
    assert not link_api({"PATH_INFO": path, "HTTP_HOST": "evil.example"})
    assert not link_api({"PATH_INFO": f"/r/{winner.report_token}/", "HTTP_HOST": "testserver"})
    assert not link_api({"PATH_INFO": path + "x/", "HTTP_HOST": "testserver"})
    assert wsgi_call("POST", path, host="evil.example", headers=JSON)[0] == 400
    status, headers, _ = wsgi_call("GET", "/api/v1/health/", headers=JSON)
    assert status == 200 and CSP in headers


@override_settings(SECURE_SSL_REDIRECT=True)
def test_plain_http_is_sent_to_https(seats):
    """(A handler made under the setting: middleware read their settings when made, once a
    process in production.)"""
    _, (winner, _) = seats
    status, headers, _ = wsgi_call(
        "POST",
        f"/api/v1/report/{winner.report_token}/",
        https=False,
        headers=JSON,
        app=LinkApiHandler(),
    )
    assert status == 301 and headers["Location"].startswith("https://")
    assert CardLine.objects.count() == 0


@override_settings(
    REST_FRAMEWORK={
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"],
            "link_misses": "3/min",
        },
    }
)
def test_guessed_links_are_counted_and_the_address_blocked(seats):
    _, (winner, _) = seats
    misses = [_report(f"guess-{n}")[0] for n in range(3)]
    assert misses == [404, 404, 404]
    status, headers, body = _report(winner.report_token)  # a valid link too: nothing learnt
    assert status == 429 and int(headers["Retry-After"]) > 0
    assert json.loads(body)["errors"][0]["code"] == "throttled"
    assert CardLine.objects.count() == 0
    # The chain: guessing on the light path blocks the address on the site's handler too (the
    # browsable page and the player's page), so switching handlers teaches nothing more.
    html = {"HTTP_ACCEPT": "text/html"}
    assert wsgi_call("GET", f"/api/v1/report/{winner.report_token}/", headers=html)[0] == 429
    assert wsgi_call("GET", f"/r/{winner.report_token}/", headers=html)[0] == 429


def test_the_light_handler_keeps_what_a_report_needs_of_the_sites_middleware():
    assert set(LINK_MIDDLEWARE) < set(settings.MIDDLEWARE)
    order = [settings.MIDDLEWARE.index(name) for name in LINK_MIDDLEWARE]
    assert order == sorted(order)  # in the site's order
