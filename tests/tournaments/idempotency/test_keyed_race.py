"""Two tries of one keyed report racing (the phone resent it while the first was still being
written): one writes, the other waits on the (link, key) row and replays the first answer.
Needs PostgreSQL: SQLite serialises writers for the whole file."""

import threading
import time

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

import tournaments.services.report as report_service
from tournaments.models import CardLine, KeptAnswer, Table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

KEY = "5d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6"


def _post(seat, answers):
    try:
        answers.append(
            APIClient().post(
                f"/api/v1/report/{seat.entry.report_token}/",
                {"result": "won", "margin": 20},
                format="json",
                HTTP_IDEMPOTENCY_KEY=KEY,
            )
        )
    finally:
        connections.close_all()


def _someone_waits_on_a_lock() -> bool:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity "
            "WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0


def test_two_tries_at_once_write_once_and_answer_alike(event_in_play, monkeypatch):
    assert connection.vendor == "postgresql"
    event = event_in_play(10)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    seat = table.seats.select_related("entry").order_by("position").first()
    release, writing = threading.Event(), threading.Event()
    preview = report_service.line_preview

    def held(**kwargs):  # the first try stops inside its transaction (the table locked)
        writing.set()
        assert release.wait(timeout=20)
        return preview(**kwargs)

    monkeypatch.setattr(report_service, "line_preview", held)
    answers = []
    first = threading.Thread(target=_post, args=(seat, answers))
    first.start()
    assert writing.wait(timeout=20)
    second = threading.Thread(target=_post, args=(seat, answers))
    second.start()
    for _ in range(400):  # until the second try waits on the first one's lock of the table
        if _someone_waits_on_a_lock():
            break
        time.sleep(0.05)
    else:
        pytest.fail("the second try never waited on the first")
    release.set()
    first.join(timeout=30)
    second.join(timeout=30)
    assert [a.status_code for a in answers] == [201, 201]
    assert answers[0].json() == answers[1].json()
    assert sorted(a.get("Idempotent-Replayed", "") for a in answers) == ["", "true"]
    assert CardLine.objects.filter(seat=seat, kind=CardLine.Kind.REPORTED).count() == 1
    assert KeptAnswer.objects.filter(entry=seat.entry).count() == 1
