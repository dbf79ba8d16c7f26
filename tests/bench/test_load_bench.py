"""The load bench itself (issue 24): its generator is open-loop (a request is timed from when
it was due, and a phone's next poll never waits for the last answer) and its limit endpoint
does what a report must do at least, in one transaction of two statements."""

import asyncio
import gzip
import json
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext, override_settings

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import load_gen  # noqa: E402  (bench/)
import load_stack  # noqa: E402
from load_stack import Answer  # noqa: E402

from bench.limit_app import LINES, tables_create  # noqa: E402
from config.link_api import link_api  # noqa: E402


def _run(coroutine):
    """``asyncio.run`` in a thread of its own: a browser test run earlier in the same process
    (Playwright's sync API) can leave an event loop running in this one."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def test_arrivals_are_random_not_evenly_spaced():
    offsets = load_gen.arrivals(200, 10.0, random.Random(1))
    gaps = {round(b - a, 6) for a, b in zip([0.0, *offsets], offsets, strict=False)}
    assert len(offsets) == 200 and len(gaps) > 150  # exponential gaps: all different
    assert offsets == sorted(offsets)


def test_latency_counts_from_the_scheduled_send_not_the_actual_one(monkeypatch):
    async def instant(*args, **kwargs):
        return Answer(201, {}, b"{}", 0.0)

    monkeypatch.setattr(load_gen, "fetch", instant)
    record = load_gen.Record()
    due = time.perf_counter() - 0.5  # the generator sent it half a second late
    _, ms = _run(load_gen.timed(1, "POST", "/x/", due, record, "submission"))
    assert ms >= 500


def test_a_phone_polls_on_its_schedule_while_its_last_poll_is_unanswered(monkeypatch):
    sent = []

    async def main():
        enough, never = asyncio.Event(), asyncio.Event()

        async def hanging(*args, **kwargs):
            sent.append(kwargs.get("etag"))
            if len(sent) >= 3:
                enough.set()
            await never.wait()  # the server never answers

        monkeypatch.setattr(load_gen, "fetch", hanging)
        monkeypatch.setattr(load_gen, "POLL_EVERY", 0.01)
        record = load_gen.Record()
        watchers = load_gen.Watchers(1, 1, ["token"], record, spectators=0)
        clients = watchers.start()
        await asyncio.wait_for(enough.wait(), 10)
        never.set()  # let the hanging requests end (as a timeout would)
        await watchers.stop(clients)
        return record

    record = _run(main())
    assert len(sent) >= 3 and record.outstanding >= 2


def _phone_against(monkeypatch, answer, **kwargs):
    """One phone's first three requests against ``answer(path, etag)`` (the server): the
    (path, ETag) and Accept of each, and the phone's record."""
    sent, accepts = [], []

    async def main():
        enough = asyncio.Event()

        async def server(port, method, path, **options):
            sent.append((path, options.get("etag")))
            accepts.append(options.get("accept", load_stack.FETCH_ACCEPT))
            if len(sent) >= 3:
                enough.set()
            return answer(path, options.get("etag"))

        monkeypatch.setattr(load_gen, "fetch", server)
        monkeypatch.setattr(load_gen, "POLL_EVERY", 0.01)
        record = load_gen.Record()
        watchers = load_gen.Watchers(1, 1, ["token"], record, spectators=0, **kwargs)
        clients = watchers.start()
        await asyncio.wait_for(enough.wait(), 10)
        await watchers.stop(clients)
        return record

    return _run(main()), sent, accepts


def test_a_phone_opens_its_page_then_polls_from_the_version_it_holds(monkeypatch):
    def answer(path, etag):
        if path == "/r/token/":
            page = b'<div data-live-version="v1" data-live-seconds="1"></div>'
            return Answer(200, {}, page, 0.0)
        return Answer(304, {"etag": '"v1"'}, b"", 0.0)

    record, sent, accepts = _phone_against(monkeypatch, answer)
    assert sent[0] == ("/r/token/", None)  # the whole page, as a player opens it
    assert sent[1:3] == [("/r/token/?part=live", '"v1"')] * 2  # then its part, from that version
    assert not record.errors
    # A browser's navigation, then live.js's fetch(), each with the Accept a browser sends.
    assert accepts[:3] == [load_stack.NAVIGATION_ACCEPT] + [load_stack.FETCH_ACCEPT] * 2


def test_a_phone_on_its_page_since_an_earlier_round_polls_for_the_new_round(monkeypatch):
    """A step's phones (BENCH_STEP_PHONES=round) open nothing: the first request is a poll
    with the earlier round's version, at the server's pace; the new part comes back (200) and
    the polls go on from its ETag."""

    def answer(path, etag):
        paced = {"etag": '"v2"', "x-poll-seconds": "0.01"}
        return Answer(304, paced, b"", 0.0) if etag == '"v2"' else Answer(200, paced, b"<p>", 0.0)

    record, sent, accepts = _phone_against(monkeypatch, answer, held=0.01)
    earlier = load_gen.Watchers.EARLIER_ROUND
    assert sent[0] == ("/r/token/?part=live", earlier)  # no page opened: a poll, as live.js
    assert sent[1:3] == [("/r/token/?part=live", '"v2"')] * 2  # then from the new round's part
    assert accepts[:3] == [load_stack.FETCH_ACCEPT] * 3
    assert not record.errors and len(record.polls) >= 3


@override_settings(ALLOWED_HOSTS=["127.0.0.1"])
def test_the_bench_sends_a_report_as_the_players_page_does_through_the_light_handler():
    """A phone's report is a script's fetch() (static/js/report-queue.js names no Accept): it
    takes the light handler (config/link_api.py). The bench once sent every request with
    "text/html" in its Accept, so its reports went through the site's whole middleware."""
    environ = {"PATH_INFO": "/api/v1/report/abc_DEF-12/", "HTTP_HOST": "127.0.0.1"}
    assert link_api({**environ, "HTTP_ACCEPT": load_stack.FETCH_ACCEPT})
    assert not link_api({**environ, "HTTP_ACCEPT": load_stack.NAVIGATION_ACCEPT})


SAME_DATABASE = """
import json, os, sys
sys.path.insert(0, os.getcwd())
import config.settings as product
import bench.limit_app.settings as limit
keys = ("ENGINE", "CONN_MAX_AGE", "CONN_HEALTH_CHECKS", "OPTIONS")
print(json.dumps([{k: s.DATABASES["default"].get(k) for k in keys} for s in (product, limit)]))
"""


def test_the_limit_has_the_products_database_settings():
    """The same engine (a kept connection checked without a round trip), connections kept as
    long, the same prepared statements: the limit's report sends what the product's sends at
    least, four statements, not a fifth ``SELECT 1``."""
    env = {
        **os.environ,
        "DATABASE_URL": "postgres://bench@127.0.0.1:5432/any",
        "SECRET_KEY": "limit-" + "x" * 50,
        "DEBUG": "false",
        "ALLOWED_HOSTS": "127.0.0.1",
    }
    env.pop("PYTEST_VERSION", None)
    done = subprocess.run([sys.executable, "-c", SAME_DATABASE], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    product, limit = json.loads(done.stdout.splitlines()[-1])
    assert product == limit and product["ENGINE"] == "config.postgresql"


@pytest.mark.services
@pytest.mark.django_db
@override_settings(ROOT_URLCONF="bench.limit_app.urls")
def test_the_limit_endpoint_looks_up_the_token_and_inserts_one_line(client):
    with connection.cursor() as cursor:
        tables_create(cursor, 3)
    with CaptureQueriesContext(connection) as queries:
        answer = client.post(
            "/limit/limit-2/", {"result": "won", "margin": 12}, content_type="application/json"
        )
    assert answer.status_code == 201 and answer.json()["margin"] == 12
    statements = [q["sql"].split()[0] for q in queries if "SAVEPOINT" not in q["sql"]]
    assert statements == ["SELECT", "INSERT"]
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT token_id, result, margin FROM {LINES}")
        assert cursor.fetchall() == [(3, "won", 12)]
    missing = client.post("/limit/none/", {"result": "won", "margin": 1}, "application/json")
    assert missing.status_code == 404


@pytest.mark.services
@pytest.mark.django_db
@override_settings(ROOT_URLCONF="bench.limit_app.urls")
def test_the_limit_poll_answers_304_until_its_token_has_a_new_line_in_one_statement(client):
    with connection.cursor() as cursor:
        tables_create(cursor, 2)
    with CaptureQueriesContext(connection) as queries:
        first = client.get("/limit/poll/limit-1/")
    assert len(queries) == 1
    assert first.status_code == 200 and first["X-Poll-Seconds"] and first.content
    same = client.get("/limit/poll/limit-1/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert same.status_code == 304 and same["ETag"] == first["ETag"]
    client.post("/limit/limit-1/", {"result": "lost", "margin": 3}, "application/json")
    changed = client.get("/limit/poll/limit-1/", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert client.get("/limit/poll/none/").status_code == 404
    assert client.get("/limit/standings/").status_code == 200
    with CaptureQueriesContext(connection) as queries:
        opened = client.get("/limit/open/limit-1/")  # a phone opening its page: one statement
    assert len(queries) == 1 and opened.status_code == 200
    assert f'data-live-version="{changed["ETag"].strip(chr(34))}"'.encode() in opened.content
    assert client.get("/limit/open/none/").status_code == 404


@pytest.mark.parametrize(
    ("limit", "knee", "tried"),
    [
        # The grid to its first failure, then two halfway steps: 310 held, 380 failed; 340
        # held (halfway, to 10/s), 360 failed.
        (350, 340, [(250, True), (310, True), (380, False), (340, True), (360, False)]),
        (320, 320, [(250, True), (310, True), (380, False), (340, False), (320, True)]),
        # The first step fails: the knee is below the grid, halfway to 0.
        (10, 0, [(250, False), (120, False), (60, False)]),
        # Nothing fails before the grid ends: "at least", no halfway step.
        (10_000, 380, [(250, True), (310, True), (380, True)]),
    ],
)
def test_the_knee_is_refined_between_the_last_rate_held_and_the_first_failed(limit, knee, tried):
    """``load_gen.knee_search``: a ratio of two knees read off a grid a quarter apart was up to
    a quarter off; two halfway steps bring it within a few percent, for Pegboard and the limit
    alike. ``held_at`` stands for a step: a rate holds up to ``limit``."""
    found, steps = load_gen.knee_search(
        [250, 310, 380], lambda rate: rate <= limit, refine=2, again=0
    )
    assert (found, steps) == (knee, tried)


def test_a_failed_step_is_run_again_before_its_rate_fails():
    """One stall of the whole machine failed a step whatever the load (the limit at 90/s, in a
    run where it held 250/s): a rate fails only when its step fails again."""
    stalls = iter([False])  # the first run at 310 stalls; every later run is what the rate gives

    def held_at(rate: int) -> bool:
        if rate == 310:
            return next(stalls, True)
        return rate <= 320

    found, steps = load_gen.knee_search([250, 310, 380], held_at, refine=2, again=1)
    assert found == 320
    assert steps == [
        (250, True),
        (310, False),
        (310, True),  # run again: it holds
        (380, False),
        (380, False),  # fails twice: the first failure
        (340, False),
        (340, False),
        (320, True),
    ]


def test_the_two_stacks_steps_run_in_turn_each_following_its_own_rates():
    """A drift of the machine's speed during one stack's minutes went into the ratio when all
    of Pegboard's steps ran before the limit's: in turn, it falls on both. Each search keeps
    its own rates, runs again and halfway steps; the one that ends first leaves the other."""
    order = []

    def stack(name, limit):
        def held_at(rate):
            order.append((name, rate))
            return rate <= limit

        return load_gen.knee_steps([250, 310, 380, 470], refine=1, again=0), held_at

    knees, tried = load_gen.interleaved({"pegboard": stack("pegboard", 300),
                                         "limit": stack("limit", 1000)})  # fmt: skip
    assert knees == {"pegboard": 280, "limit": 470}
    assert order == [
        ("pegboard", 250), ("limit", 250),
        ("pegboard", 310), ("limit", 310),
        ("pegboard", 280), ("limit", 380),  # Pegboard's halfway step; its search ends
        ("limit", 470),
    ]  # fmt: skip
    assert [(name, rate) for name, rate, _ in tried] == order
    assert ("pegboard", 310, False) in tried and ("limit", 470, True) in tried
    # Alone, a search gives what it gave in turn.
    alone, _ = load_gen.interleaved({"pegboard": stack("pegboard", 300)})
    assert alone == {"pegboard": 280}


def test_a_search_with_no_rates_has_a_knee_of_nothing():
    knees, tried = load_gen.interleaved({"x": (load_gen.knee_steps([]), lambda rate: True)})
    assert knees == {"x": 0} and tried == []


class _Spinning:
    """A stack of one part that keeps a core busy (its ``procs``, as ``load_stack.Stack``)."""

    def __enter__(self):
        spin = "while True: pass"
        self.procs = {"web": subprocess.Popen([sys.executable, "-c", spin])}
        return self

    def __exit__(self, *exc):
        self.procs["web"].kill()
        self.procs["web"].wait()


def test_a_step_waits_for_the_stack_to_be_quiet_but_not_forever():
    """What the last step left running (a standings job, a set-up's WAL) counts as busy: the
    next step waits for it, up to its longest wait; a quiet stack waits its span (2.5 s)."""
    with _Spinning() as busy:
        # A spinning process has more than a tenth of a core in every half-second, however
        # busy the machine running the tests is.
        assert load_stack.quiet(busy, most=0.1, longest=4) >= 4
        # Every part but the generator counts: as many cores as the machine has is never busy.
        assert load_stack.quiet(busy, most=os.cpu_count() + 1, longest=10) < 6


def test_a_step_prints_the_cores_the_hypervisor_took_apart_from_the_servers(capsys):
    """Steal (``/proc/stat``) is time no part of the stack used: printed on its own, never in
    the server's CPU a report."""
    before = {"web": 1.0, "postgres": 0.5, "generator": 2.0, load_stack.STOLEN: 10.0}
    after = {"web": 3.0, "postgres": 1.5, "generator": 3.0, load_stack.STOLEN: 12.0}
    load_stack.print_cpu(before, after, 10.0, reports=1000)
    line = capsys.readouterr().out
    assert "web 0.20, postgres 0.10, generator 0.10; stolen by the hypervisor 0.20" in line
    assert "server CPU 3.0 ms a report" in line
    assert load_stack.stolen_seconds() >= 0.0


TERMINATED = """
import os, signal, sys, time
sys.path.insert(0, "bench")
import django
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings"
django.setup()
from load_stack import stop_on_terminate
stop_on_terminate()
try:
    print("running", flush=True)
    time.sleep(30)
finally:
    print("cleaned up", flush=True)
"""


def test_a_killed_bench_cleans_up_as_a_finished_one_does():
    """SIGTERM (``kill``) raises SystemExit in the bench, so its ``finally`` stops the servers
    and removes the temporary directory and database; Python's default ended it at once."""
    env = {**os.environ, "DEBUG": "true"}  # settings that load without a SECRET_KEY
    bench = subprocess.Popen([sys.executable, "-c", TERMINATED], cwd=ROOT, env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    assert bench.stdout.readline() == "running\n"
    bench.terminate()
    out, err = bench.communicate(timeout=20)
    assert out == "cleaned up\n", err
    assert bench.returncode == 128 + 15


def test_a_knee_at_the_highest_rate_tried_is_said_to_be_only_a_bound():
    """A stack that held every step up to BENCH_MAX_RATE has a knee of at least that: the ratio
    is then a bound, said as such (the limit held 1,000/s in a run of the eleventh session)."""
    assert load_gen.capped(420, 810, 1000) == []
    (note,) = load_gen.capped(420, 1000, 1000)
    assert "the limit held at BENCH_MAX_RATE=1000/s" in note
    assert "knee_ratio is at most 0.42" in note
    (note,) = load_gen.capped(1000, 800, 1000)
    assert "Pegboard held" in note and "at least 1.25" in note
    (note,) = load_gen.capped(1000, 1000, 1000)
    assert "both stacks held" in note and "knee_ratio is unknown" in note


def test_an_answer_is_read_as_a_browser_reads_it():
    """A body the server compressed is unpacked when the bench reads it; what was sent (the
    size the limit's page copies) stays as it came."""
    page = b"<table>" + b"<tr><td>1</td></tr>" * 500 + b"</table>"
    packed = Answer(200, {"content-encoding": "gzip"}, gzip.compress(page), 0.0)
    assert packed.body == page and len(packed.payload) < len(page) / 10
    assert Answer(200, {}, page, 0.0).body == page
