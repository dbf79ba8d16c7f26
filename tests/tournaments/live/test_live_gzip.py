"""A public page kept rendered goes gzip-compressed to a browser that accepts it: compressed
once per version with the rendering (never at each request), the same bytes once unpacked, a
weak ETag that a browser's next If-None-Match still matches, and ``Vary: Accept-Encoding`` so
no cache between hands the compressed copy to a client that cannot read it."""

import gzip

import pytest
from django.core.cache import caches

from tournaments.services.results import card_line_report
from tournaments.views import live

pytestmark = pytest.mark.django_db

CHROMIUM = {"HTTP_ACCEPT_ENCODING": "gzip, deflate, br, zstd"}


def _another_worker() -> None:
    caches["live"].clear()
    live.rendered_forget()


def _vary(response) -> set[str]:
    return {part.strip().lower() for part in response.get("Vary", "").split(",")}


def test_a_browser_that_accepts_gzip_gets_the_kept_page_compressed(client, standings_page):
    url, calls = standings_page
    packed = client.get(url, **CHROMIUM)
    plain = client.get(url)
    assert packed.status_code == plain.status_code == 200 and len(calls) == 1
    assert packed["Content-Encoding"] == "gzip" and not plain.has_header("Content-Encoding")
    assert gzip.decompress(packed.content) == plain.content
    assert len(packed.content) < len(plain.content) / 2, (len(packed.content), len(plain.content))
    version = plain["ETag"].strip('"')
    assert packed["ETag"] == f'W/"{version}"' and plain["ETag"] == f'"{version}"'
    assert "accept-encoding" in _vary(packed) and "accept-encoding" in _vary(plain)
    assert packed["Cache-Control"] == "no-cache"  # a public page, as before
    # The browser's next reload: either validator says it holds this version.
    for held in (packed["ETag"], plain["ETag"]):
        assert client.get(url, HTTP_IF_NONE_MATCH=held, **CHROMIUM).status_code == 304
    again = client.get(url, **CHROMIUM)  # from this process's memory: not compressed again
    assert again.content == packed.content and len(calls) == 1


def test_another_worker_sends_the_compressed_copy_the_first_one_made(client, standings_page):
    url, calls = standings_page
    first = client.get(url, **CHROMIUM)
    _another_worker()
    second = client.get(url, **CHROMIUM)
    assert second.status_code == 200 and len(calls) == 1
    assert second.content == first.content and second["Content-Encoding"] == "gzip"


def test_the_earlier_version_meanwhile_goes_compressed_too(
    client, table, standings_page, django_capture_on_commit_callbacks
):
    """While another worker renders a new version, the last one is answered: compressed to a
    browser that accepts it, with that version's weak ETag."""
    url, calls = standings_page
    first = client.get(url, **CHROMIUM)
    a, b = table.seats.order_by("position")
    with django_capture_on_commit_callbacks(execute=True):  # the standings job follows
        card_line_report(seat=a, won=True, spread=30)
        card_line_report(seat=b, won=False, spread=30)
    from tournaments.selectors.live import public_version

    new = public_version(event=table.game.event)
    caches["rendered"].add(f"render:{url}:{new}:claim", 1)  # another worker is rendering it
    meanwhile = client.get(url, **CHROMIUM)
    assert meanwhile.status_code == 200 and len(calls) == 1
    assert meanwhile.content == first.content and meanwhile["ETag"] == first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"], **CHROMIUM).status_code == 304


def test_a_rendering_kept_before_compression_existed_is_sent_as_it_is(client, standings_page):
    """A shared rendering stored by a worker of the previous release (two items, no compressed
    copy) is still answered, uncompressed."""
    url, calls = standings_page
    version = client.get(url)["ETag"].strip('"')
    _another_worker()
    caches["rendered"].set(f"render:{url}:{version}", (b"<p>old</p>", "text/html; charset=utf-8"))
    old = client.get(url, **CHROMIUM)
    assert old.status_code == 200 and old.content == b"<p>old</p>" and len(calls) == 1
    assert not old.has_header("Content-Encoding") and old["ETag"] == f'"{version}"'


def test_a_small_rendering_is_not_compressed(client, standings_page, monkeypatch):
    url, _ = standings_page
    monkeypatch.setattr(live, "GZIP_FROM", 10**9)
    small = client.get(url, **CHROMIUM)
    assert small.status_code == 200 and not small.has_header("Content-Encoding")
    assert "accept-encoding" not in _vary(small) and small["ETag"].startswith('"')


def test_a_signed_in_visitors_page_is_not_compressed(client, table, standings_page):
    """Only the renderings kept for every anonymous visitor are compressed: a signed-in
    visitor's page (which holds their CSRF token) goes as it is."""
    url, _ = standings_page
    client.force_login(table.game.event.created_by)
    mine = client.get(url, **CHROMIUM)
    assert mine.status_code == 200 and not mine.has_header("Content-Encoding")
    assert mine["Cache-Control"] == "private, no-cache"


def test_if_none_match_compares_weakly_for_pages_and_polls_alike():
    from tournaments.live_poll import etag_held

    assert etag_held('"v1"', 'W/"v1"') and etag_held('"v1"', '"v0", "v1"')
    assert not etag_held('"v1"', 'W/"v2"') and not etag_held('"v1"', "")
