"""Last-heard times are noted in the process and written in one round trip a second
(``tournaments.heard``): a thousand first polls cost a worker one cache write a second."""

from __future__ import annotations

import time

from django.core.cache import caches

from tournaments import heard
from tournaments.heard import heard_flush, heard_many, heard_record


def _written(tokens) -> dict:
    return caches["heard"].get_many([f"heard:{t}" for t in tokens])


def test_many_links_are_written_in_one_batch(monkeypatch):
    tokens = [f"link-{n}" for n in range(200)]
    batches = []
    kind = type(caches["heard"])  # every thread's instance: the requests' and the writer's
    real = kind.set_many
    monkeypatch.setattr(kind, "set_many", lambda *a, **k: batches.append(1) or real(*a, **k))
    with heard._flushing:  # the process's writer waits: the requests alone are seen here
        for token in tokens:
            heard_record(token=token)
        assert _written(tokens) == {} and batches == []  # noted, not written by the requests
    heard_flush()  # by this thread, or already by the writer
    assert len(_written(tokens)) == 200
    assert batches == [1]


def test_the_board_of_this_process_sees_what_it_noted_at_once():
    heard_record(token="noted-here")
    assert list(heard_many(tokens=["noted-here", "never"])) == ["noted-here"]


def test_the_process_writes_what_it_noted_without_another_request():
    heard_record(token="left-alone")
    deadline = time.monotonic() + 5 * heard.FLUSH_SECONDS
    while time.monotonic() < deadline and not _written(["left-alone"]):
        time.sleep(0.05)
    assert _written(["left-alone"]), "the process's own thread writes within a few seconds"
