"""The WSGI shortcut for players' polls: an unchanged poll is answered 304 before Django's
request handling, with the ETag Django would send; anything else reaches Django unchanged."""

import pytest
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from tests.helpers import wsgi_get
from tournaments.models import Table
from tournaments.services.results import card_line_report

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _connection_kept(keep_the_tests_connection):
    """Requests here go through the WSGI entry point, not the test client."""


@pytest.fixture
def seats(event_in_play):
    table = Table.objects.get(game__event=event_in_play(10), game__number=1, number=1)
    return table.seats.select_related("entry").order_by("position")


@override_settings(SECURE_SSL_REDIRECT=True)
def test_an_unchanged_poll_is_answered_before_django(seats):
    a, b = seats
    path = f"/r/{a.entry.report_token}/"
    status, headers, body = wsgi_get(path)  # no ETag yet: Django renders the part
    assert status == 200 and b"Game 1" in body and "Content-Security-Policy" in headers
    etag = headers["ETag"]
    with CaptureQueriesContext(connection) as queries:
        status, headers, body = wsgi_get(path, etag=etag)
    assert (status, headers["ETag"], body) == (304, etag, b"")
    assert headers["Cache-Control"] == "private, no-cache"
    assert "Content-Security-Policy" not in headers  # Django's middleware never ran
    assert len(queries) == 3  # the link's version, the event's games and phones, nothing else

    card_line_report(seat=b, won=False, spread=12)  # the opponent reports: a new version
    status, headers, body = wsgi_get(path, etag=etag)
    assert status == 200 and headers["ETag"] != etag and b"your turn" in body


@override_settings(SECURE_SSL_REDIRECT=True)
def test_what_django_would_refuse_or_redirect_reaches_django(seats):
    a, _ = seats
    path = f"/r/{a.entry.report_token}/"
    etag = wsgi_get(path)[1]["ETag"]
    assert wsgi_get(path, etag=etag, host="evil.example")[0] == 400
    # Plain HTTP where HTTPS is required: Django's answer (its middleware adds the policy).
    assert "Content-Security-Policy" in wsgi_get(path, etag=etag, https=False)[1]
    assert wsgi_get("/r/not-a-link/", etag=etag)[0] == 404
    assert wsgi_get(path, query="", etag=etag)[0] == 200  # the whole page, not a poll


def test_a_poll_answered_before_django_records_the_phone_heard_without_a_database_write(seats):
    from django.core.cache import caches

    from tournaments.heard import heard_forget_memo, heard_many

    a, b = seats
    path = f"/r/{a.entry.report_token}/"
    etag = wsgi_get(path)[1]["ETag"]
    caches["heard"].clear()
    heard_forget_memo()
    with CaptureQueriesContext(connection) as queries:
        assert wsgi_get(path, etag=etag)[0] == 304
    assert all(q["sql"].lstrip().upper().startswith("SELECT") for q in queries)
    heard = heard_many(tokens=[a.entry.report_token, b.entry.report_token])
    assert list(heard) == [a.entry.report_token]  # the opponent's phone was not heard

    caches["heard"].clear()  # within 30 s the same process does not write the link again
    assert wsgi_get(path, etag=etag)[0] == 304
    assert heard_many(tokens=[a.entry.report_token]) == {}
    assert wsgi_get("/r/not-a-link/", etag=etag)[0] == 404
    assert heard_many(tokens=["not-a-link"]) == {}


def _version_reads(queries) -> int:
    return sum('"v_table_line"' in q["sql"] for q in queries)


def test_a_changed_poll_reads_its_version_once(seats):
    """The shortcut hands the version it read on to the view: a 200 does not ask again."""
    a, b = seats
    path = f"/r/{a.entry.report_token}/"
    etag = wsgi_get(path)[1]["ETag"]
    card_line_report(seat=b, won=False, spread=12)
    with CaptureQueriesContext(connection) as queries:
        status, headers, _ = wsgi_get(path, etag=etag)
    assert status == 200 and headers["ETag"] != etag
    assert _version_reads(queries) == 1
    with CaptureQueriesContext(connection) as queries:  # no ETag: the view reads it itself
        assert wsgi_get(path)[0] == 200
    assert _version_reads(queries) == 1


def test_each_answer_paces_the_phone_to_the_events_poll_budget(seats, settings):
    """A small field polls every 3.5 s; a large one so that its phones together stay within
    LIVE_POLL_BUDGET polls a second. Every answer says it: the 304 before Django, a 200, and
    the page the phone opens."""
    a, _ = seats
    path = f"/r/{a.entry.report_token}/"
    status, headers, _ = wsgi_get(path)
    assert (status, headers["X-Poll-Seconds"]) == (200, "3.5")  # 10 players
    settings.LIVE_POLL_BUDGET = 2  # 10 phones at 2 polls a second: every 5 s each
    status, headers, _ = wsgi_get(path, etag=headers["ETag"])
    assert (status, headers["X-Poll-Seconds"]) == (304, "5")
    status, headers, _ = wsgi_get(path, etag='"not-this-one"')
    assert (status, headers["X-Poll-Seconds"]) == (200, "5")
    status, _, body = wsgi_get(path, query="")
    assert status == 200 and b'data-live-seconds="5"' in body
    settings.LIVE_POLL_BUDGET = 3  # 10 / 3 = 3.33 s: never more often than every 3.5 s
    assert wsgi_get(path)[1]["X-Poll-Seconds"] == "3.5"
    settings.LIVE_POLL_BUDGET = 2
    a.entry.event.entries.exclude(pk=a.entry.pk).update(status="withdrawn")
    assert wsgi_get(path)[1]["X-Poll-Seconds"] == "3.5"  # withdrawn players do not poll


def test_the_page_holds_its_parts_version_so_the_first_poll_is_a_304(client, seats):
    """The player's page says which version of its live part it holds (live.js starts with it
    as its ETag): the phone's first poll after opening is a 304 while nothing changed, not the
    same part rendered again; after a change it is the new part."""
    import re

    a, b = seats
    path = f"/r/{a.entry.report_token}/"
    with CaptureQueriesContext(connection) as queries:
        status, _, page = wsgi_get(path, query="")  # the page, as the phone opens it
    assert status == 200
    held = re.search(rb'data-live-version="([0-9a-f]+)"', page).group(1).decode()
    assert sum('"v_table_line"' in q["sql"] for q in queries) == 1  # read with the entry
    assert wsgi_get(path, etag=f'"{held}"')[0] == 304
    card_line_report(seat=b, won=False, spread=12)
    status, headers, body = wsgi_get(path, etag=f'"{held}"')
    assert status == 200 and b"has reported: your turn" in body
    preview = client.post(path, {"result": "won", "margin": 12})  # a preview is not polled
    assert preview.status_code == 200 and "data-live-version" not in preview.content.decode()
