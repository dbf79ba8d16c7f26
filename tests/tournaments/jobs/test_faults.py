"""Faults with the real components: a broker that goes away, a worker killed mid-job, a burst of
identical requests. The stack is the production one (gunicorn, a Celery worker and beat on
PostgreSQL) with its own Redis server that the tests stop and start, and the production job
timings (a 15 s sweep, 30 s without a heartbeat), so the figures are the ones a venue would see.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection, transaction
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.conftest import (
    REPO,
    database_url_of_test_db,
    free_port,
    manage,
    stop,
    subprocess_env,
    wait_for_http,
)
from tests.smtp_sink import SmtpSink
from tournaments.models import Game, Job, Table
from tournaments.selectors.jobs import _RECHECK_SECONDS

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

HTTPS = {"X-Forwarded-Proto": "https"}
RECOVERY_SECONDS = 60  # the promise: work resumes within a minute


class Stack:
    """A Redis server of its own, gunicorn, a worker and beat, all as real processes."""

    def __init__(self, tmp_path: Path, mail: dict[str, str]) -> None:
        self.tmp = tmp_path
        self.redis_port = free_port()
        self.web_port = free_port()
        self.env = subprocess_env(
            DEBUG="false",
            SECRET_KEY=settings.SECRET_KEY,  # sessions made by the test's client are valid
            ALLOWED_HOSTS="127.0.0.1",
            DATABASE_URL=database_url_of_test_db(),
            CELERY_BROKER_URL=f"redis://127.0.0.1:{self.redis_port}/0",
            STATIC_ROOT=str(tmp_path / "static"),
            **mail,  # production settings send e-mail by SMTP: to a real server, here a sink
        )
        self.procs: dict[str, subprocess.Popen] = {}

    def _start(self, name: str, command: list[str]) -> subprocess.Popen:
        log = open(self.tmp / f"{name}.log", "a")  # noqa: SIM115  (closed with the process)
        proc = subprocess.Popen(
            command,
            cwd=REPO,
            env=self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: a kill takes its children too
        )
        proc.log = log
        self.procs[name] = proc
        return proc

    def redis_start(self) -> None:
        self._start(
            "redis",
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1"]
            + ["--save", "", "--appendonly", "no"],
        )
        deadline = time.monotonic() + 10
        import redis

        client = redis.Redis(port=self.redis_port, socket_connect_timeout=1)
        while True:
            try:
                client.ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def redis_stop(self) -> None:
        self.stop("redis")

    def web_start(self) -> None:
        collected = manage("collectstatic", "--noinput", env=self.env)
        assert collected.returncode == 0, collected.stderr
        proc = self._start(
            "web",
            [sys.executable, "-m", "gunicorn", "config.wsgi:application"]
            + ["--bind", f"127.0.0.1:{self.web_port}", "--workers", "2", "--threads", "8"],
        )
        wait_for_http(self.url("/api/v1/health/"), proc=proc, headers=HTTPS)

    def worker_start(self, name: str = "worker") -> subprocess.Popen:
        return self._start(
            name,
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--concurrency", "1"]
            + ["--hostname", f"{name}-{self.redis_port}@%h", "--loglevel", "INFO"],
        )

    def beat_start(self) -> None:
        self._start(
            "beat",
            [sys.executable, "-m", "celery", "-A", "config", "beat", "--loglevel", "INFO"]
            + ["--schedule", str(self.tmp / "beat-schedule")],
        )

    def kill(self, name: str) -> None:
        """kill -9 the process and its children: no chance to finish or acknowledge anything."""
        proc = self.procs.pop(name)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        proc.log.close()

    def stop(self, name: str) -> None:
        proc = self.procs.pop(name)
        stop(proc)
        proc.log.close()

    def close(self) -> None:
        for name in list(self.procs):
            self.kill(name)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.web_port}{path}"

    def request(self, method: str, path: str, data=None, headers=None) -> tuple[int, dict | str]:
        body = json.dumps(data).encode() if data is not None else None
        request = urllib.request.Request(
            self.url(path),
            data=body,
            method=method,
            headers={**HTTPS, "Content-Type": "application/json", **(headers or {})},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, raw = response.status, response.read().decode()
        except urllib.error.HTTPError as exc:
            status, raw = exc.code, exc.read().decode()
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw

    def logs(self) -> str:
        return "\n".join(
            f"--- {path.name}\n{path.read_text()[-3000:]}" for path in self.tmp.glob("*.log")
        )


@pytest.fixture
def stack(tmp_path):
    import redis

    redis.Redis(port=6379, socket_connect_timeout=3).ping()  # the services are here: fail, not skip
    with SmtpSink() as sink:
        stack = Stack(tmp_path, mail=sink.env())
        stack.redis_start()
        yield stack
        stack.close()


def _wait_until(condition, *, seconds: float, what: str, stack: Stack) -> float:
    """Seconds until ``condition()`` held; fails with the processes' logs after ``seconds``."""
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        if condition():
            return time.monotonic() - started
        time.sleep(0.25)
    raise AssertionError(f"{what}: not within {seconds} s\n{stack.logs()}")


def _all_jobs_done() -> bool:
    return not Job.objects.filter(status__in=Job.UNFINISHED).exists()


def _token(user) -> dict[str, str]:
    return {"Authorization": f"Token {Token.objects.get_or_create(user=user)[0].key}"}


def _session(user) -> dict[str, str]:
    client = Client()
    client.force_login(user)
    return {"Cookie": f"sessionid={client.cookies['sessionid'].value}"}


def test_with_the_broker_down_reports_are_saved_and_jobs_run_when_it_returns(stack, event_in_play):
    event = event_in_play(10)
    stack.web_start()
    stack.worker_start()
    stack.beat_start()
    stack.redis_stop()

    # Both players report table 1: the second report verifies it and asks for the standings.
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    a, b = table.seats.select_related("entry").order_by("position")
    first = stack.request(
        "POST", f"/api/v1/report/{a.entry.report_token}/", {"result": "won", "margin": 21}
    )
    second = stack.request(
        "POST", f"/api/v1/report/{b.entry.report_token}/", {"result": "lost", "margin": 21}
    )
    assert first[0] == 201 and second[0] == 201, (first, second)
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED

    # The director asks for game 2: saved and answered, the job waits.
    pair = stack.request(
        "POST", f"/api/v1/events/{event.pk}/games/2/pair/", headers=_token(event.director)
    )
    assert pair[0] == 202, pair
    waiting = Job.objects.filter(status=Job.Status.PENDING)
    assert {job.kind for job in waiting} >= {"pairings", "standings"}
    assert all(job.dispatched_at is None for job in waiting)

    # The health check and the director's page say so.
    status, health = stack.request("GET", "/api/v1/health/")
    assert status == 200 and health["status"] == "degraded" and health["broker"] == "down"
    assert health["jobs_waiting"] >= 2
    # Each web process trusts what it saw of the broker for a few seconds: the worker that
    # answered the start-up health check just before Redis stopped may say "ok" until then.
    director = _session(event.director)

    def _banner_shown() -> bool:
        status, page = stack.request("GET", f"/events/{event.pk}/manage/", headers=director)
        assert status == 200, page
        return "Background work is paused" in page

    _wait_until(_banner_shown, seconds=_RECHECK_SECONDS + 2, what="paused banner", stack=stack)

    # Asking again while the broker is down joins the waiting job: one job, not two.
    again = stack.request(
        "POST", f"/api/v1/events/{event.pk}/games/2/pair/", headers=_token(event.director)
    )
    assert again[0] == 202 and again[1]["id"] == pair[1]["id"]

    stack.redis_start()
    seconds = _wait_until(_all_jobs_done, seconds=RECOVERY_SECONDS, what="jobs sent", stack=stack)
    print(f"broker back: every waiting job done after {seconds:.1f} s")
    assert not Job.objects.filter(status=Job.Status.FAILED).exists(), stack.logs()
    game = Game.objects.get(event=event, number=2)
    assert game.status == Game.Status.PAIRED and game.tables.count() == 5
    # Each web process asks the broker again at most every 5 s.
    healthy = {"status": "ok", "broker": "ok", "jobs_waiting": 0}
    _wait_until(
        lambda: healthy.items() <= stack.request("GET", "/api/v1/health/")[1].items(),
        seconds=15,
        what="health back to ok",
        stack=stack,
    )
    # The access log shows the reports without the players' private links.
    access_log = (stack.tmp / "web.log").read_text()
    assert "POST /api/v1/report/[link]/" in access_log
    assert a.entry.report_token not in access_log and b.entry.report_token not in access_log


def test_a_worker_killed_mid_job_has_its_job_run_again_once(stack, event_in_play):
    event = event_in_play(40)
    Game.objects.get(event=event, number=1).tables.update(status=Table.Status.VERIFIED)
    stack.web_start()
    stack.beat_start()
    stack.worker_start("first")

    # Another transaction is writing game 2's first table (held open by this test): the
    # pairing job will wait to save its tables, like a job stuck behind a long write.
    game = Game.objects.create(event=event, number=2, seed=7)
    held = threading.Event()
    release = threading.Event()

    def hold_the_game():
        with transaction.atomic():
            Table.objects.create(game=game, number=1)
            held.set()
            release.wait(120)
            transaction.set_rollback(True)
        connection.close()

    holder = threading.Thread(target=hold_the_game)
    holder.start()
    held.wait(10)
    try:
        pair = stack.request(
            "POST", f"/api/v1/events/{event.pk}/games/2/pair/", headers=_token(event.director)
        )
        assert pair[0] == 202, pair
        job = Job.objects.get(pk=pair[1]["id"])

        def saving():
            job.refresh_from_db()
            return job.status == Job.Status.RUNNING and job.progress >= 80

        _wait_until(saving, seconds=30, what="the job reaches its save", stack=stack)
        time.sleep(settings.JOBS_HEARTBEAT_SECONDS * 2)
        job.refresh_from_db()
        assert job.status == Job.Status.RUNNING  # a slow job is alive: its heartbeat says so
        stack.kill("first")
    finally:
        release.set()
        holder.join(30)
    assert game.tables.count() == 0  # nothing half-written
    job.refresh_from_db()
    assert job.status == Job.Status.RUNNING and job.attempts == 1

    stack.worker_start("second")
    seconds = _wait_until(
        lambda: Job.objects.get(pk=job.pk).finished,
        seconds=RECOVERY_SECONDS,
        what="the killed job done again",
        stack=stack,
    )
    print(f"worker killed: the job finished {seconds:.1f} s after a new worker started")
    job.refresh_from_db()
    assert job.status == Job.Status.SUCCEEDED and job.attempts == 2, stack.logs()
    game.refresh_from_db()
    assert game.status == Game.Status.PAIRED
    assert game.tables.count() == 20 and game.seats.count() == 40


def test_thirty_pair_requests_at_once_run_one_job(stack, event_in_play):
    event = event_in_play(40)
    Game.objects.get(event=event, number=1).tables.update(status=Table.Status.VERIFIED)
    stack.web_start()
    stack.worker_start()
    headers = _token(event.director)
    barrier = threading.Barrier(30)
    answers = []

    def ask():
        barrier.wait(10)
        answers.append(
            stack.request("POST", f"/api/v1/events/{event.pk}/games/2/pair/", headers=headers)
        )

    threads = [threading.Thread(target=ask) for _ in range(30)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    statuses = sorted(status for status, _ in answers)
    accepted = {body["id"] for status, body in answers if status == 202}
    # Answers: the one job (202), or "already paired" (400) once it finished.
    assert len(answers) == 30 and set(statuses) <= {202, 400}, answers
    assert len(accepted) == 1
    _wait_until(_all_jobs_done, seconds=RECOVERY_SECONDS, what="pairing done", stack=stack)
    assert Job.objects.filter(kind="pairings", key=f"event:{event.pk}:game:2").count() == 1
    game = Game.objects.get(event=event, number=2)
    assert game.tables.count() == 20 and game.seats.count() == 40
