"""Live parts: a poll costs a query or two and answers 304 while nothing the page shows
changed; any change a player or director could see gives a new version at once (here, where
nothing is shared between polls) or within ``LIVE_SHARE_SECONDS``; a public page is rendered
once per version."""

import os

import pytest
from django.core.cache import caches
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext

from tournaments.models import Game, Notice
from tournaments.selectors.live import entry_version, event_version, public_version
from tournaments.services.pairings import game_pairings_request, game_publish
from tournaments.services.results import card_line_report, game_close
from tournaments.services.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db


def _part(client, entry, etag=None):
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(f"/r/{entry.report_token}/?part=live", **headers)


def test_a_poll_is_a_few_queries_and_304_until_something_changes(client, table):
    a, b = (seat.entry for seat in table.seats.order_by("position"))
    first = _part(client, a)
    assert first.status_code == 200 and first["Cache-Control"] == "private, no-cache"
    assert "<html" not in first.content.decode() and "Game 1" in first.content.decode()
    etag = first["ETag"]
    with CaptureQueriesContext(connection) as queries:
        again = _part(client, a, etag)
    assert again.status_code == 304 and again["ETag"] == etag and not again.content
    # the link's own version, the event's games and its phones (these two kept for
    # LIVE_SHARE_SECONDS in production: one read a process for every poll of the event)
    assert len(queries) == 3
    card_line_report(seat=table.seats.get(entry=b), won=False, spread=12)
    changed = _part(client, a, etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "has reported: your turn" in changed.content.decode()


def test_the_full_page_is_never_answered_from_a_cache(client, table):
    entry = table.seats.first().entry
    page = client.get(f"/r/{entry.report_token}/")
    assert page["Cache-Control"] == "private, no-cache" and not page.has_header("ETag")
    assert f'data-live-url="/r/{entry.report_token}/?part=live"' in page.content.decode()


def _changes(event, table, django_capture_on_commit_callbacks):
    """Things a player's page shows, each made in turn."""
    a, b = (seat for seat in table.seats.order_by("position"))
    director = event.director
    yield "the opponent reports", lambda: card_line_report(seat=b, won=False, spread=9)
    yield "a notice", lambda: Notice.objects.create(entry=a.entry, message="Report please")
    yield "the game closes", lambda: game_close(game=table.game, user=director)

    def pair_and_publish():
        with django_capture_on_commit_callbacks(execute=True):
            game_pairings_request(event=event, number=2, user=director)
        game_publish(game=Game.objects.get(event=event, number=2), user=director)

    yield "the next game is published", pair_and_publish
    yield "the player withdraws", lambda: entry_withdraw(entry=a.entry, user=director)


def test_every_visible_change_makes_a_new_version(table, django_capture_on_commit_callbacks):
    event = table.game.event
    event.director = event.roles.get(role="director").user
    entry = table.seats.order_by("position").first().entry

    def versions():
        return entry_version(entry=entry), event_version(event=event), public_version(event=event)

    # The public pages (standings, bracket, wall) do not show a single report: only the
    # standings job's snapshot, which follows it (see the next test).
    public_misses = {"a notice", "the opponent reports"}
    for what, change in _changes(event, table, django_capture_on_commit_callbacks):
        before = versions()
        change()
        entry.refresh_from_db()
        after = versions()
        assert after[0] != before[0], f"the player's page misses: {what}"
        if what != "a notice":
            assert after[1] != before[1], f"the board misses: {what}"
        assert (after[2] != before[2]) == (what not in public_misses), f"public pages: {what}"


def test_a_verified_game_reaches_the_public_pages_with_the_standings(
    table, django_capture_on_commit_callbacks
):
    event = table.game.event
    a, b = table.seats.order_by("position")
    before = public_version(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        card_line_report(seat=a, won=True, spread=30)
    assert public_version(event=event) == before  # one card: nothing public changes
    with django_capture_on_commit_callbacks(execute=True):
        card_line_report(seat=b, won=False, spread=30)  # verified: the standings job runs
    assert public_version(event=event) != before


def test_versions_stay_put_while_nothing_changes(table):
    entry = table.seats.first().entry
    assert entry_version(entry=entry) == entry_version(entry=entry)
    assert event_version(event=table.game.event) == event_version(event=table.game.event)


def test_polls_of_one_event_share_its_part_of_the_version(client, table):
    a, b = (seat.entry for seat in table.seats.order_by("position"))
    caches["live"].clear()
    with override_settings(LIVE_SHARE_SECONDS=30):
        etags = {entry.pk: _part(client, entry)["ETag"] for entry in (a, b)}
        with CaptureQueriesContext(connection) as queries:
            assert _part(client, b, etags[b.pk]).status_code == 304
        assert len(queries) == 1  # the link's own version: the event's games are shared
        # What is the player's own still shows at once; only the shared part waits.
        card_line_report(seat=table.seats.get(entry=b), won=False, spread=12)
        assert _part(client, a, etags[a.pk]).status_code == 200
    caches["live"].clear()


def test_a_public_page_is_rendered_once_per_version(
    client, table, standings_page, django_capture_on_commit_callbacks
):
    url, calls = standings_page
    first = client.get(url)
    assert first.status_code == 200 and first["Cache-Control"] == "no-cache"
    again = client.get(url)
    assert again.content == first.content and len(calls) == 1
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    a, b = table.seats.order_by("position")
    with django_capture_on_commit_callbacks(execute=True):  # the standings job follows
        card_line_report(seat=a, won=True, spread=30)
        card_line_report(seat=b, won=False, spread=30)
    changed = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and len(calls) == 2


def _another_worker() -> None:
    """Be another web worker: none of this process's memory, the same shared cache."""
    from tournaments.views.live import rendered_forget

    caches["live"].clear()
    rendered_forget()


def test_a_public_page_one_worker_rendered_is_not_rendered_again_by_the_others(
    client, standings_page
):
    url, calls = standings_page
    first = client.get(url)
    _another_worker()
    second = client.get(url)
    assert second.status_code == 200 and len(calls) == 1
    assert second.content == first.content and second["ETag"] == first["ETag"]
    _another_worker()
    assert client.get(f"{url}?made=up").status_code == 200  # not shared: rendered here
    version = first["ETag"].strip('"')
    assert len(calls) == 2 and caches["rendered"].get(f"render:{url}:{version}") is not None
    assert caches["rendered"].get(f"render:{url}?made=up:{version}") is None


def test_while_a_worker_renders_a_new_version_the_others_serve_the_last_one(
    client, table, standings_page, django_capture_on_commit_callbacks
):
    url, calls = standings_page
    first = client.get(url)
    a, b = table.seats.order_by("position")
    with django_capture_on_commit_callbacks(execute=True):  # the standings job follows
        card_line_report(seat=a, won=True, spread=30)
        card_line_report(seat=b, won=False, spread=30)
    new = public_version(event=table.game.event)
    assert f'"{new}"' != first["ETag"]
    caches["rendered"].add(f"render:{url}:{new}:claim", 1)  # another worker is rendering it
    meanwhile = client.get(url)
    assert meanwhile.status_code == 200 and len(calls) == 1
    assert meanwhile.content == first.content and meanwhile["ETag"] == first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    caches["rendered"].set(f"render:{url}:{new}", (b"<p>new</p>", "text/html; charset=utf-8"))
    done = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])  # that worker's rendering
    assert done.status_code == 200 and done.content == b"<p>new</p>" and len(calls) == 1
    assert done["ETag"] == f'"{new}"'


def test_a_new_version_nobody_is_rendering_is_rendered_here(
    client, table, standings_page, django_capture_on_commit_callbacks
):
    """The claim of a worker that died runs out: the next worker renders the version."""
    url, calls = standings_page
    client.get(url)
    a, b = table.seats.order_by("position")
    with django_capture_on_commit_callbacks(execute=True):
        card_line_report(seat=a, won=True, spread=30)
        card_line_report(seat=b, won=False, spread=30)
    changed = client.get(url)
    assert changed.status_code == 200 and len(calls) == 2
    assert changed["ETag"] == f'"{public_version(event=table.game.event)}"'


def test_without_the_shared_cache_each_worker_renders_its_own(client, standings_page, monkeypatch):
    from tournaments.views import live

    url, calls = standings_page

    def unreachable(*args, **kwargs):
        raise ConnectionError("no cache server")

    for method in ("get", "set", "add"):
        monkeypatch.setattr(caches["rendered"], method, unreachable)
    monkeypatch.setattr(live._shared, "paused_until", 0.0)
    first = client.get(url)
    _another_worker()
    second = client.get(url)
    assert first.status_code == second.status_code == 200 and len(calls) == 2
    assert second.content == first.content


def test_a_signed_in_visitors_page_never_reaches_the_other_workers(client, table, standings_page):
    """What a director sees (their own controls) is rendered for them alone: nothing of it is
    kept for anonymous spectators, in this process or in the shared cache."""
    url, calls = standings_page
    client.force_login(table.game.event.created_by)
    mine = client.get(url)
    assert mine.status_code == 200 and mine["Cache-Control"] == "private, no-cache"
    client.logout()
    _another_worker()
    public = client.get(url)
    assert public.status_code == 200 and len(calls) == 2  # rendered again, for the public
    version = public["ETag"].strip('"')
    assert caches["rendered"].get(f"render:{url}:{version}")[0] == public.content


@pytest.mark.services
def test_workers_share_a_rendering_through_redis(client, standings_page):
    """As in production: the ``rendered`` cache on Redis, a rendering stored by one worker and
    answered by another, the same bytes."""
    from django.conf import settings

    from tests.conftest import REDIS_URL

    url, calls = standings_page
    rendered = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": f"test-rendered-{os.getpid()}",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
    with override_settings(CACHES={**settings.CACHES, "rendered": rendered}):
        first = client.get(url)
        _another_worker()
        second = client.get(url)
        assert second.status_code == 200 and len(calls) == 1
        assert second.content == first.content and second["ETag"] == first["ETag"]
        version = first["ETag"].strip('"')
        caches["rendered"].delete(f"render:{url}:{version}")  # the run's Redis is shared


def test_no_page_reloads_itself(settings):
    """Pages follow changes through live parts; none reloads itself with a meta refresh."""
    from pathlib import Path

    templates = Path(settings.BASE_DIR, "templates").rglob("*.html")
    assert not [t.name for t in templates if 'http-equiv="refresh"' in t.read_text()]


def test_a_games_page_follows_its_publication(
    client, event_in_play, django_capture_on_commit_callbacks
):
    from tournaments.services.pairings import game_pairings_request, game_publish

    event = event_in_play(10)
    client.force_login(event.director)
    with django_capture_on_commit_callbacks(execute=True):
        game_pairings_request(event=event, number=2, user=event.director)
    url = f"/events/{event.pk}/games/2/"
    page = client.get(url)
    assert f'data-live-url="{url}?part=live"' in page.content.decode()
    part = client.get(url + "?part=live")
    assert part.status_code == 200 and "Paired" in part.content.decode()
    assert client.get(url + "?part=live", HTTP_IF_NONE_MATCH=part["ETag"]).status_code == 304
    game_publish(game=Game.objects.get(event=event, number=2), user=event.director)
    changed = client.get(url + "?part=live", HTTP_IF_NONE_MATCH=part["ETag"])
    assert changed.status_code == 200 and "Published" in changed.content.decode()


def test_a_jobs_page_follows_the_job(client, event_in_play):
    from tournaments.models import Job

    event = event_in_play(10)
    client.force_login(event.director)
    job = Job.objects.create(kind="standings", key="x", created_by=event.director)
    url = f"/jobs/{job.pk}/"
    assert f'data-live-url="{url}?part=live"' in client.get(url).content.decode()
    part = client.get(url + "?part=live")
    assert client.get(url + "?part=live", HTTP_IF_NONE_MATCH=part["ETag"]).status_code == 304
    Job.objects.filter(pk=job.pk).update(progress=50, message="Halfway")
    changed = client.get(url + "?part=live", HTTP_IF_NONE_MATCH=part["ETag"])
    assert changed.status_code == 200 and "Halfway" in changed.content.decode()


def test_a_phone_opening_its_page_reads_entry_and_version_in_one_query(client, table):
    """No ETag (a phone opening its page): one query reads the entry with its version's
    parts, and what those parts say does not exist (lines at its tables, notices) is not read;
    the version is the one the poll shortcut reads, so the next poll is a 304."""
    from tournaments.selectors.live import entry_and_poll_by_token, entry_poll_by_token

    a, b = (seat.entry for seat in table.seats.order_by("position"))

    def opened():
        with CaptureQueriesContext(connection) as queries:
            answer = _part(client, a)
        assert answer.status_code == 200
        assert answer["ETag"] == f'"{entry_poll_by_token(token=a.report_token)[0]}"'
        assert entry_and_poll_by_token(token=a.report_token)[1] == entry_poll_by_token(
            token=a.report_token
        )
        sqls = [q["sql"] for q in queries]
        assert sum('"v_table_line"' in sql for sql in sqls) == 1  # the version, read once
        return answer, sqls

    answer, sqls = opened()
    # entry and version, the event's games, its phones (both shared in production), the card
    assert len(sqls) == 4, sqls
    assert not any(s.startswith(('SELECT "tournaments_cardline"', 'SELECT "tournaments_notice"'))
                   for s in sqls)  # fmt: skip
    card_line_report(seat=table.seats.get(entry=b), won=False, spread=12)
    answer, sqls = opened()
    assert len(sqls) == 5 and "has reported: your turn" in answer.content.decode()
    Notice.objects.create(entry=a, message="Your table is number 1.")
    answer, sqls = opened()
    assert len(sqls) == 6 and "Your table is number 1." in answer.content.decode()
    assert _part(client, a, answer["ETag"]).status_code == 304
    assert _part(client, a, answer["ETag"].replace('"', "'")).status_code == 200
    assert client.get("/r/not-a-link/?part=live").status_code == 404
