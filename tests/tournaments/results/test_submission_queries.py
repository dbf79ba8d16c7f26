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


def _queries(client, seat, body) -> int:
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(
            f"/api/v1/report/{seat.entry.report_token}/", body, content_type="application/json"
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
