"""A player's report holds the table's row lock while it reads and writes the table's lines,
so two reports of one table at the same moment are taken one after the other.

SQLite has no row locks (Django leaves ``FOR UPDATE`` out there), so this runs on PostgreSQL
only: it is marked ``services``, skipped locally and required in CI (``CI=true``).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tournaments.models import Seat

pytestmark = [pytest.mark.services, pytest.mark.django_db]


def test_a_players_report_locks_the_table_row(event_in_play):
    assert connection.vendor == "postgresql", "row locks can only be seen on PostgreSQL"
    event = event_in_play(4, qualifying_games=3)
    seat = Seat.objects.filter(game__event=event, game__number=1, table__isnull=False).first()
    url = f"/api/v1/report/{seat.entry.report_token}/"
    with CaptureQueriesContext(connection) as queries:
        response = APIClient().post(url, {"result": "won", "margin": 12}, format="json")
    assert response.status_code == 201, response.json()
    # The first statement finds the link's seat and locks its table's row (services.report).
    first = queries.captured_queries[1]["sql"]  # after the transaction's SAVEPOINT
    assert 'INNER JOIN "tournaments_table"' in first, first
    assert first.endswith('FOR UPDATE OF "tournaments_table"'), first
    assert seat.entry.report_token in first, first
    assert seat.card_lines.filter(kind="reported", current=True).exists()
