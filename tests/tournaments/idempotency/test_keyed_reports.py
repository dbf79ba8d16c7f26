"""Writes that can be repeated safely (issue 25 item 3): a report sent again with the same
``Idempotency-Key`` (a lost answer, a phone's queue sending it again) is stored once and gets
the first answer; the same key with another body is a 409; no key behaves as before."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tournaments.models import CardLine, Event, KeptAnswer, Match, MatchLine, Table
from tournaments.services.corrections import table_correct
from tournaments.services.jobs import jobs_sweep
from tournaments.services.playoffs import playoff_build

pytestmark = pytest.mark.django_db

KEY = "3f9a1c2e-7b4d-4e8f-9a0b-1c2d3e4f5a6b"


def _table(event):
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    return (table, *table.seats.select_related("entry").order_by("position"))


def _report(seat, body, key=KEY):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return APIClient().post(
        f"/api/v1/report/{seat.entry.report_token}/", body, format="json", **headers
    )


def _reported(seat) -> int:
    return CardLine.objects.filter(seat=seat, kind=CardLine.Kind.REPORTED).count()


def test_the_same_key_and_body_replays_the_first_answer_and_stores_one_line(event_in_play):
    _, a, _ = _table(event_in_play(10))
    first = _report(a, {"result": "won", "margin": 20})
    again = _report(a, {"margin": 20, "result": "won"})
    assert first.status_code == again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first
    assert _reported(a) == 1


def test_the_same_key_with_another_body_is_a_409_naming_the_way_forward(event_in_play):
    _, a, _ = _table(event_in_play(10))
    assert _report(a, {"result": "won", "margin": 20}).status_code == 201
    other = _report(a, {"result": "won", "margin": 21})
    assert other.status_code == 409
    (error,) = other.json()["errors"]
    assert error["code"] == "idempotency_conflict" and error["field"] == "Idempotency-Key"
    assert "new key" in error["message"]
    line = CardLine.objects.get(seat=a, kind=CardLine.Kind.REPORTED)
    assert (line.plus, line.current) == (20, True)


def test_without_a_key_each_report_is_stored_as_before(event_in_play):
    _, a, _ = _table(event_in_play(10))
    for _ in range(2):
        assert _report(a, {"result": "won", "margin": 20}, key=None).status_code == 201
    assert _reported(a) == 2 and not KeptAnswer.objects.exists()


def test_a_key_is_per_link(event_in_play):
    _, a, b = _table(event_in_play(10))
    assert _report(a, {"result": "won", "margin": 20}).status_code == 201
    assert _report(b, {"result": "lost", "margin": 20}).status_code == 201
    assert (_reported(a), _reported(b)) == (1, 1)


def test_a_key_that_cannot_be_one_is_refused(event_in_play):
    _, a, _ = _table(event_in_play(10))
    answer = _report(a, {"result": "won", "margin": 20}, key="x y")
    assert answer.status_code == 400
    assert answer.json()["errors"][0]["code"] == "invalid_idempotency_key"
    assert _reported(a) == 0


def test_a_refused_report_is_not_kept_so_the_fixed_one_may_use_the_key(event_in_play):
    _, a, _ = _table(event_in_play(10))
    assert _report(a, {"result": "won", "margin": 500}).status_code == 400
    assert _report(a, {"result": "won", "margin": 20}).status_code == 201
    assert _reported(a) == 1


def test_a_replay_after_the_table_was_verified_and_corrected_gets_the_first_answer(
    event_in_play,
):
    event = event_in_play(10)
    table, a, b = _table(event)
    first = _report(a, {"result": "won", "margin": 20})
    assert _report(b, {"result": "lost", "margin": 20}, key="b-" + KEY).status_code == 201
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED
    replay = _report(a, {"result": "won", "margin": 20})
    assert (replay.status_code, replay.json()) == (201, first.json())
    from scoring.games import CardLine as EngineLine

    table_correct(
        table=table,
        lines={a.pk: EngineLine(2, 25, 0), b.pk: EngineLine(0, 0, 25)},
        reason="Paper card says 25",
        user=event.director,
    )
    late = _report(a, {"result": "won", "margin": 20})
    assert (late.status_code, late.json()) == (201, first.json())
    assert _reported(a) == 1


def test_the_sweep_deletes_keys_older_than_the_setting(event_in_play, settings):
    settings.IDEMPOTENCY_KEY_HOURS = 48
    _, a, _ = _table(event_in_play(10))
    assert _report(a, {"result": "won", "margin": 20}).status_code == 201
    assert jobs_sweep()["expired_keys"] == 0
    later = timezone.now() + timedelta(hours=49)
    assert jobs_sweep(now=later)["expired_keys"] == 1 and not KeptAnswer.objects.exists()


def test_the_schema_names_the_header_and_the_409(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    for path in ("/api/v1/report/{token}/", "/api/v1/report/{token}/match/"):
        post = schema["paths"][path]["post"]
        names = [(p["name"], p["in"]) for p in post.get("parameters", [])]
        assert ("Idempotency-Key", "header") in names
        assert "409" in post["responses"]


# The player's page: the form carries a key, and sending it again stores one line


def test_the_page_form_carries_a_new_key_each_time_it_is_shown(client, event_in_play):
    _, a, _ = _table(event_in_play(10))
    url = reverse("player-page", args=[a.entry.report_token])
    keys = [
        page.context["fresh_key"] for page in (client.get(url), client.get(url)) if page.context
    ]
    assert len(set(keys)) == 2
    assert 'name="idempotency_key"' in client.get(url).content.decode()


def test_the_confirm_form_sent_twice_with_its_key_stores_one_line(client, event_in_play):
    _, a, _ = _table(event_in_play(10))
    url = reverse("player-page", args=[a.entry.report_token])
    body = {"result": "won", "margin": "20", "game": "1", "idempotency_key": KEY}
    preview = client.post(url, body)
    assert f'name="idempotency_key" value="{KEY}"' in preview.content.decode()
    for _ in range(2):
        assert client.post(url, {**body, "confirm": "1"}).status_code == 302
    assert _reported(a) == 1
    # The same key sent then through the API (a phone's queue) is the same report.
    replay = _report(a, {"result": "won", "margin": 20, "game": 1})
    assert replay.status_code == 201 and _reported(a) == 1


def test_the_confirm_form_with_a_used_key_and_other_figures_says_what_to_do(client, event_in_play):
    _, a, _ = _table(event_in_play(10))
    url = reverse("player-page", args=[a.entry.report_token])
    body = {"result": "won", "margin": "20", "game": "1", "idempotency_key": KEY}
    assert client.post(url, {**body, "confirm": "1"}).status_code == 302
    again = client.post(url, {**body, "margin": "21", "confirm": "1"})
    assert again.status_code == 400
    assert "send the form again from your page" in again.content.decode()
    assert _reported(a) == 1


# The playoff match: the API and the page


@pytest.fixture
def semi(qualified_event):
    event = qualified_event(12, 5, playoff_best_of={"every": 3})
    playoff_build(event_id=event.pk)
    Event.objects.filter(pk=event.pk).update(published=True)
    return Match.objects.get(playoff__event=event, round=1, slot=1)


def test_a_match_report_with_a_key_is_stored_once(semi):
    url = f"/api/v1/report/{semi.entry_a.report_token}/match/"
    send = lambda body: APIClient().post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=KEY)  # noqa: E731
    first = send({"result": "won", "margin": 12})
    again = send({"result": "won", "margin": 12})
    assert first.status_code == again.status_code == 201 and again.json() == first.json()
    assert MatchLine.objects.filter(entry=semi.entry_a).count() == 1
    assert send({"result": "won", "margin": 13}).status_code == 409


def test_the_match_form_sent_twice_with_its_key_stores_one_line(client, semi):
    url = reverse("player-match-report", args=[semi.entry_a.report_token])
    body = {"result": "won", "margin": "12", "idempotency_key": KEY, "confirm": "1"}
    for _ in range(2):
        assert client.post(url, body).status_code == 302
    assert MatchLine.objects.filter(entry=semi.entry_a).count() == 1


def test_the_page_shows_its_queue_to_tests_and_assistive_technology(client, event_in_play):
    """Issue 25 item 4, the part the server renders: ``#sync-status`` is on the page, outside
    the polled part, idle with nothing waiting, and a live region."""
    import re

    _, a, _ = _table(event_in_play(10))
    html = client.get(reverse("player-page", args=[a.entry.report_token])).content.decode()
    tag = re.search(r'<p id="sync-status"[^>]*>', html)
    assert tag is not None and tag.start() < html.index('<div id="live"')  # not polled away
    attrs = dict(re.findall(r'([a-z-]+)="([^"]*)"', tag.group()))
    assert (attrs["data-sync-state"], attrs["data-pending"]) == ("idle", "0")
    assert attrs["aria-live"] == "polite"


def test_a_key_is_kept_per_link_another_link_with_it_gets_no_answer_of_the_first(event_in_play):
    """The chain, not the route: a holder of one link who learns (or guesses) the key another
    link used gets nothing of that link's answer; their report is their own, saved and kept
    under their link (the kept answer is written in the report's own statement)."""
    table, a, b = _table(event_in_play(10))
    first = _report(a, {"result": "won", "margin": 20})
    other = _report(b, {"result": "lost", "margin": 20})  # the same KEY, the opponent's link
    assert first.status_code == other.status_code == 201
    assert "Idempotent-Replayed" not in other
    assert other.json()["verified"] is True and first.json()["verified"] is False
    assert _reported(a) == _reported(b) == 1
    kept = dict(KeptAnswer.objects.filter(key=KEY).values_list("entry_id", "answer"))
    assert kept == {a.entry_id: first.json(), b.entry_id: other.json()}
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED
