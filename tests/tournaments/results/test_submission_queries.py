"""The player's report through the API takes a small number of queries, the same whatever the
size of the field: a burst of a thousand reports must not grow with the event."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments.models import Table

pytestmark = pytest.mark.django_db

# The first card of a table: the link, the seat, the seat again and the locked table inside
# the transaction, the line (retire, add), the table's lines, then the new state for the
# answer (the running card's seats and lines, the notices). The second card also writes the
# two verified lines and the table, and asks for the standings (a job row and its lookup).
FIRST_CARD, SECOND_CARD = 10, 14
# A report sent with an Idempotency-Key also inserts its (link, key) row first and keeps the
# answer in it (services.idempotency); a report without one takes no more than before.
KEYED = 2


def _queries(client, seat, body, key=None) -> int:
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(
            f"/api/v1/report/{seat.entry.report_token}/",
            body,
            content_type="application/json",
            **headers,
        )
    assert answer.status_code == 201, answer.content
    return len([q for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]])


@pytest.mark.parametrize("players", [10, 40])
def test_a_report_takes_a_fixed_number_of_queries(client, event_in_play, players):
    event = event_in_play(players)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    a, b = table.seats.select_related("entry").order_by("position")
    assert _queries(client, a, {"result": "won", "margin": 20}) == FIRST_CARD
    assert _queries(client, b, {"result": "lost", "margin": 20}) == SECOND_CARD
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED


def test_a_keyed_report_takes_two_more_queries_and_its_replay_writes_nothing(client, event_in_play):
    event = event_in_play(10)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    a, b = table.seats.select_related("entry").order_by("position")
    key = "c0ffee00-1111-4222-8333-444455556666"
    assert _queries(client, a, {"result": "won", "margin": 20}, key) == FIRST_CARD + KEYED
    assert _queries(client, b, {"result": "lost", "margin": 20}, key) == SECOND_CARD + KEYED
    # Sent again: the link, the seat, the refused insert and the kept answer; nothing written.
    assert _queries(client, a, {"result": "won", "margin": 20}, key) == 4
