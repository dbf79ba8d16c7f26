"""The director's board says when each player's phone was last heard, and raises the alarm
when no phone of a game in play has reached the server for SILENCE_MINUTES."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import override_settings
from django.utils import timezone

from tests.helpers import client_for
from tournaments.models import Game, Table
from tournaments.services.results import card_line_report, game_close

pytestmark = pytest.mark.django_db


def _board(event):
    return client_for(event.director).get(f"/api/v1/events/{event.pk}/games/1/board/").json()


def _seats(event, number=1):
    table = Table.objects.get(game__event=event, game__number=1, number=number)
    return table.seats.select_related("entry").order_by("position")


def _published_minutes_ago(event, minutes):
    Game.objects.filter(event=event, number=1).update(
        published_at=timezone.now() - timedelta(minutes=minutes)
    )


def test_a_report_and_a_page_visit_show_as_last_heard_on_the_board(client, event_in_play):
    event = event_in_play(10)
    a, b = _seats(event, 1)
    c, _ = _seats(event, 2)
    assert client.post(
        f"/api/v1/report/{a.entry.report_token}/",
        {"result": "won", "margin": 12},
        content_type="application/json",
    ).status_code in (200, 201)
    assert client.get(f"/r/{c.entry.report_token}/").status_code == 200
    assert client.get("/r/no-such-link/").status_code == 404
    board = _board(event)
    first, second = board["tables"][0]["seats"], board["tables"][1]["seats"]
    assert first[0]["last_heard"] is not None and first[1]["last_heard"] is None
    assert second[0]["last_heard"] is not None and second[1]["last_heard"] is None
    assert board["last_heard"] is not None and board["silence"] is None
    page = client_for(event.director)
    page.force_login(event.director)
    html = page.get(f"/events/{event.pk}/games/1/board/").content.decode()
    assert "heard just now" in html and "not heard" in html
    assert "No phone has reached the server for" not in html


def test_silence_after_the_set_minutes_names_paper_entry(client, event_in_play):
    event = event_in_play(10)
    a, b = _seats(event, 1)
    card_line_report(seat=a, won=True, spread=5)  # through paper or a service: no phone
    card_line_report(seat=b, won=False, spread=5)  # table 1 verified
    _published_minutes_ago(event, 6)
    silence = _board(event)["silence"]
    assert silence["minutes"] == 6 and silence["last_heard"] is None
    assert silence["paper_table"] == 2  # the first table still waiting
    assert "paper entry stays the fallback" in silence["message"]
    page = client_for(event.director)
    page.force_login(event.director)
    html = page.get(f"/events/{event.pk}/games/1/board/").content.decode()
    assert "No phone has reached the server for 6 minutes." in html
    assert "Paper entry stays the fallback" in html
    assert f"/events/{event.pk}/games/1/tables/2/#paper-heading" in html

    with override_settings(SILENCE_MINUTES=10):
        assert _board(event)["silence"] is None
    client.get(f"/r/{_seats(event, 3)[0].entry.report_token}/")  # one phone gets through
    assert _board(event)["silence"] is None


def test_no_silence_when_nothing_waits_for_phones(event_in_play):
    event = event_in_play(10)
    _published_minutes_ago(event, 30)
    assert _board(event)["silence"] is not None
    game_close(game=Game.objects.get(event=event, number=1), user=event.director)
    assert _board(event)["silence"] is None


def test_the_words_for_when_a_phone_was_heard():
    from tournaments.selectors.board import heard_words

    now = timezone.now()
    assert heard_words(None) == "not heard"
    assert heard_words(now - timedelta(seconds=20)) == "heard just now"
    assert heard_words(now - timedelta(minutes=5, seconds=3)) == "heard 5 min ago"
    assert heard_words(now - timedelta(hours=3)).startswith("heard at ")


def test_an_unreachable_cache_fails_no_request_and_the_board_shows_no_times(client, event_in_play):
    from django.conf import settings

    from tournaments.heard import heard_forget_memo

    event = event_in_play(10)
    a, _ = _seats(event, 1)
    nowhere = {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
    with override_settings(CACHES={**settings.CACHES, "heard": nowhere}):
        heard_forget_memo()
        assert client.get(f"/r/{a.entry.report_token}/").status_code == 200
        board = _board(event)
    assert board["last_heard"] is None and board["tables"][0]["seats"][0]["last_heard"] is None
