"""The replay bench (issue 25 item 8) with a few players: its schedule sends every report twice
with one key inside the release, its storm against a real server stores each report once and
verifies every table, and its tally sees a duplicated line when there is one."""

import asyncio
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from math import inf
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

from load_setup import event_with_game  # noqa: E402  (bench/)
from replay_storm import schedule, settled, storm, tally  # noqa: E402

from tests.helpers import client_for  # noqa: E402
from tournaments.models import Table  # noqa: E402
from tournaments.services.standings import standings_recompute  # noqa: E402


def _run(coroutine):
    """``asyncio.run`` in a thread of its own (see tests/bench/test_load_bench.py)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_every_report_is_sent_twice_with_one_key_inside_the_release():
    reports = [(f"token{n}", {"result": "won", "margin": n + 1}) for n in range(50)]
    sends = schedule(reports, 5.0, seed=1)
    assert len(sends) == 100 and all(0 <= send.due <= 5.0 for send in sends)
    by_key = Counter(send.key for send in sends)
    assert len(by_key) == 50 and set(by_key.values()) == {2}
    for key in by_key:
        first, second = sorted((s for s in sends if s.key == key), key=lambda s: s.copy)
        assert (first.token, first.body) == (second.token, second.body)
        assert first.due <= second.due


# PostgreSQL: the storm is many phones at once, and the test's server answers them on threads.
# SQLite serves one request at a time in production (venue mode runs one sync worker); on threads
# it refuses a savepoint while another thread's statement is open ("SQL statements in progress").
@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_storm_stores_each_report_once_and_verifies_every_table(live_server):
    event, reports, _ = event_with_game(None, "Replay test", 12)
    port = int(live_server.url.rsplit(":", 1)[1])
    result = _run(storm(port, schedule(reports, 1.0, seed=3)))
    assert result.record.errors == [] and result.replay_errors() == []
    assert len(result.record.submissions) == 2 * len(reports) == 24
    assert tally(event, [token for token, _ in reports]) == (0, 0, 0)
    # The standings as the bench waits for them. (Here jobs run in the request, and this test
    # server answers requests side by side: the standings job of one table can miss the next
    # ones', so they are computed once more, as the worker of the production stack does.)
    standings_recompute(event_id=event.pk)
    seconds = _run(settled(port, event.pk, len(reports), result.started_at, limit=30))
    assert seconds < 30
    assert _run(settled(port, event.pk, len(reports) + 2, result.started_at, limit=1)) == inf


@pytest.mark.django_db
def test_the_tally_counts_a_report_stored_twice_and_one_never_sent(event_in_play):
    event = event_in_play(10)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    a, b = (seat.entry.report_token for seat in table.seats.order_by("position"))
    player = client_for()
    for _ in range(2):  # no Idempotency-Key: a resend is saved again
        answer = player.post(f"/api/v1/report/{a}/", {"result": "won", "margin": 9}, format="json")
        assert answer.status_code == 201
    assert tally(event, [a, b]) == (1, 1, 5)
