"""A keyed report sent again (issue 25 item 3): its replay is the first answer byte for byte,
and on the playoff match, as on a qualifying game, a replay that arrives after the game moved
on (verified, then corrected by the director) gets the first answer and writes nothing."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tournaments.models import AuditEntry, Event, KeptAnswer, Match, MatchGame, MatchLine, Table
from tournaments.services.playoffs import playoff_build
from tournaments.services.playoffs_corrections import match_game_correct

pytestmark = pytest.mark.django_db

KEY = "5b0e2f4a-1c3d-4e5f-8a9b-0c1d2e3f4a5b"


def _send(url: str, body: dict, key: str = KEY):
    return APIClient().post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def _written() -> tuple[int, ...]:
    return (
        MatchLine.objects.count(),
        AuditEntry.objects.count(),
        KeptAnswer.objects.count(),
        MatchGame.objects.count(),
    )


@pytest.fixture
def semi(qualified_event):
    event = qualified_event(12, 5, playoff_best_of={"every": 3})
    playoff_build(event_id=event.pk)
    Event.objects.filter(pk=event.pk).update(published=True)
    return Match.objects.get(playoff__event=event, round=1, slot=1)


def test_a_replay_is_the_first_answer_byte_for_byte(event_in_play, semi):
    """On PostgreSQL the kept answer comes back from jsonb with its keys in another order."""
    table = Table.objects.get(game__event=event_in_play(10), game__number=1, number=1)
    seat = table.seats.select_related("entry").order_by("position").first()
    urls = (
        f"/api/v1/report/{seat.entry.report_token}/",
        f"/api/v1/report/{semi.entry_a.report_token}/match/",
    )
    for url in urls:
        first = _send(url, {"result": "won", "margin": 12})
        again = _send(url, {"margin": 12, "result": "won"})
        assert (first.status_code, again.status_code) == (201, 201)
        assert again["Idempotent-Replayed"] == "true"
        assert again.content == first.content, url


def test_a_match_replay_after_the_game_was_verified_and_corrected_gets_the_first_answer(semi):
    a, b = semi.entry_a, semi.entry_b
    url_a = f"/api/v1/report/{a.report_token}/match/"
    url_b = f"/api/v1/report/{b.report_token}/match/"
    first = _send(url_a, {"result": "won", "margin": 12, "game": 1})
    theirs = _send(url_b, {"result": "lost", "margin": 12, "game": 1}, key="b-" + KEY)
    assert (first.status_code, theirs.status_code) == (201, 201)
    game = MatchGame.objects.get(match=semi, number=1)
    assert game.status == MatchGame.Status.VERIFIED

    written = _written()
    replay = _send(url_a, {"result": "won", "margin": 12, "game": 1})
    assert (replay.status_code, replay.json()) == (201, first.json())
    assert _written() == written

    match_game_correct(
        match_game=game,
        winner_entry=a,
        spread=20,
        reason="The card says 20",
        user=semi.playoff.event.created_by,
    )
    written = _written()
    late = _send(url_a, {"result": "won", "margin": 12, "game": 1})
    assert (late.status_code, late.json()) == (201, first.json())
    other = _send(url_a, {"result": "won", "margin": 13, "game": 1})
    assert other.status_code == 409
    assert other.json()["errors"][0]["code"] == "idempotency_conflict"
    assert _written() == written
    reported = MatchLine.objects.filter(entry=a, kind=MatchLine.Kind.REPORTED)
    assert reported.count() == 1
