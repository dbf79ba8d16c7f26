"""No private link, check-in code or API token in any log of the production stack.

gunicorn (``gunicorn.conf.py``, DEBUG off), a Celery worker and a Redis server of their own run
as real processes with every log captured: the worker's stdout and stderr, gunicorn's access
log (stdout) and error log (stderr, where Django's warnings go too), at DEBUG level. A director
publishes a game through the API, so the worker e-mails every player their table and private
link through SMTP to a real server on loopback (``tests.smtp_sink``); then the players poll
their pages and the API, report, get refused, mistype links; someone opens the event's
check-in code, a wrong code and a sign-in page that names the code in ``?next=``. Every line
of every log is then searched for every secret: none may be there. The e-mails themselves
must hold the links, and the logs must show the traffic (redacted), or the search proves
nothing.
"""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from tests.conftest import (
    REPO,
    database_url_of_test_db,
    free_port,
    manage,
    stop,
    subprocess_env,
    wait_for_http,
)
from tests.factories import EntryFactory, EventFactory
from tests.smtp_sink import SmtpSink, body_of
from tournaments.models import Entry, Game, Job
from tournaments.services.api_tokens import api_token_issue
from tournaments.services.events import event_close_registration
from tournaments.services.pairings import game_pairings_request
from tournaments.views.check_in import event_check_in_code

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

SITE = "https://pegboard.example.org"
PLAYERS = 8
HTTPS = {"X-Forwarded-Proto": "https"}


class Stack:
    """Redis, gunicorn and a worker, each process's stdout and stderr in files of their own."""

    def __init__(self, tmp: Path, mail: dict[str, str]) -> None:
        self.tmp = tmp
        self.redis_port, self.web_port = free_port(), free_port()
        self.env = subprocess_env(
            DEBUG="false",
            SECRET_KEY=settings.SECRET_KEY,  # the test's sessions and check-in codes hold
            ALLOWED_HOSTS="127.0.0.1",
            DATABASE_URL=database_url_of_test_db(),
            CELERY_BROKER_URL=f"redis://127.0.0.1:{self.redis_port}/0",
            STATIC_ROOT=str(tmp / "static"),
            SITE_URL=SITE,
            LOG_LEVEL="DEBUG",
            **mail,
        )
        self.procs: dict[str, subprocess.Popen] = {}

    def start(self) -> None:
        self._run("redis", ["redis-server", "--port", str(self.redis_port)]
                  + ["--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])  # fmt: skip
        collected = manage("collectstatic", "--noinput", env=self.env)
        assert collected.returncode == 0, collected.stderr
        web = self._run("web", [sys.executable, "-m", "gunicorn", "config.wsgi:application"]
                        + ["--bind", f"127.0.0.1:{self.web_port}", "--workers", "2"])  # fmt: skip
        self._run("worker", [sys.executable, "-m", "celery", "-A", "config", "worker"]
                  + ["--pool", "solo", "--loglevel", "DEBUG", "--without-gossip"]
                  + ["--without-mingle", "--hostname", f"logs-{self.redis_port}@%h"])  # fmt: skip
        wait_for_http(self.url("/api/v1/health/"), proc=web, headers=HTTPS)

    def _run(self, name: str, command: list[str]) -> subprocess.Popen:
        out = open(self.tmp / f"{name}.stdout.log", "w")  # noqa: SIM115  (closed in stop_all)
        err = open(self.tmp / f"{name}.stderr.log", "w")  # noqa: SIM115
        proc = subprocess.Popen(command, cwd=REPO, env=self.env, stdout=out, stderr=err)
        proc.files = (out, err)
        self.procs[name] = proc
        return proc

    def stop_all(self) -> None:
        for proc in self.procs.values():
            stop(proc)
            for file in proc.files:
                file.close()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.web_port}{path}"

    def logs(self) -> dict[str, list[str]]:
        """Every captured line, by file (Redis's own log is not the site's: left out)."""
        return {
            path.name: path.read_text(errors="replace").splitlines()
            for path in sorted(self.tmp.glob("*.log"))
            if not path.name.startswith("redis.")
        }

    def call(self, method: str, path: str, data=None, headers=None) -> tuple[int, dict, str]:
        request = urllib.request.Request(
            self.url(path),
            data=json.dumps(data).encode() if data is not None else None,
            method=method,
            headers={**HTTPS, "Content-Type": "application/json", **(headers or {})},
        )
        opener = urllib.request.build_opener(_NoRedirect)
        try:
            with opener.open(request, timeout=30) as answer:
                return answer.status, dict(answer.headers), answer.read().decode()
        except urllib.error.HTTPError as exc:
            return exc.code, dict(exc.headers), exc.read().decode()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


@pytest.fixture
def stack(tmp_path):
    import redis

    redis.Redis(port=6379, socket_connect_timeout=3).ping()  # the services are here: fail, not skip
    with SmtpSink() as sink:
        stack = Stack(tmp_path, sink.env())
        stack.sink = sink
        try:
            yield stack
        finally:
            stack.stop_all()


@pytest.fixture
def event(django_capture_on_commit_callbacks):
    """A paired, unpublished game 1 of ``PLAYERS`` players, each with an e-mail address."""
    event = EventFactory(qualifying_games=3)
    for n in range(PLAYERS):
        EntryFactory(event=event, email=f"player{n}@example.org")  # given for this event
    event_close_registration(event=event, user=event.created_by)
    with django_capture_on_commit_callbacks(execute=True):
        game_pairings_request(event=event, number=1, user=event.created_by)
    assert Game.objects.get(event=event, number=1).status == Game.Status.PAIRED
    return event


def _wait_for_jobs(stack: Stack) -> None:
    deadline = time.monotonic() + 60
    while Job.objects.filter(status__in=Job.UNFINISHED).exists():
        assert time.monotonic() < deadline, f"jobs still running: {stack.logs()}"
        time.sleep(0.3)
    failed = list(Job.objects.filter(status=Job.Status.FAILED).values_list("kind", "error"))
    assert not failed, failed


def _players_traffic(stack: Stack, entries: list[Entry]) -> None:
    for entry in entries:
        page = f"/r/{entry.report_token}/"
        assert stack.call("GET", page)[0] == 200
        status, headers, _ = stack.call("GET", page + "?part=live")
        assert status == 200
        poll = stack.call("GET", page + "?part=live", headers={"If-None-Match": headers["ETag"]})
        assert poll[0] == 304  # answered before Django: the access log still has it
        api = f"/api/v1/report/{entry.report_token}/"
        assert stack.call("GET", api, headers={"Referer": SITE + page})[0] == 200
    first, second = (
        Entry.objects.filter(seats__table__number=1, seats__game__event=entries[0].event)
        .order_by("seats__position")
        .distinct()
    )
    won = {"result": "won", "margin": 11}
    assert stack.call("POST", f"/api/v1/report/{first.report_token}/", won)[0] == 201
    lost = {"result": "lost", "margin": 11}
    assert stack.call("POST", f"/api/v1/report/{second.report_token}/", lost)[0] == 201
    refused = {"result": "won", "margin": -3}
    assert stack.call("POST", f"/api/v1/report/{first.report_token}/", refused)[0] == 400


def test_no_link_code_or_token_reaches_any_log(stack, event):
    director = event.created_by
    api_token = api_token_issue(user=director).key
    browser = Client()
    browser.force_login(director)
    session = browser.cookies["sessionid"].value
    code = event_check_in_code(event)
    wrong_code, unknown_link = secrets.token_urlsafe(16), secrets.token_urlsafe(24)
    stack.start()

    published = stack.call(
        "POST",
        f"/api/v1/events/{event.pk}/games/1/publish/",
        headers={"Authorization": f"Token {api_token}"},
    )
    assert published[0] == 200, published
    emails = stack.sink.wait_for(PLAYERS)
    entries = list(Entry.objects.filter(event=event).select_related("player"))
    by_address = {message["To"]: body_of(message) for message in emails}
    for entry in entries:  # the e-mail itself holds the player's link
        assert f"{SITE}/r/{entry.report_token}/" in by_address[entry.email]

    _players_traffic(stack, entries)
    assert stack.call("GET", f"/r/{unknown_link}/")[0] == 404
    assert stack.call("GET", "/r/%00/")[0] == 404
    check_in = f"/events/{event.pk}/check-in/{code}/"
    status, headers, _ = stack.call("GET", check_in)  # not signed in: to the sign-in page
    assert status == 302 and code in headers["Location"]
    assert stack.call("GET", headers["Location"])[0] == 200
    signed_in = {"Cookie": f"sessionid={session}"}
    assert stack.call("GET", check_in, headers=signed_in)[0] == 200
    wrong = f"/events/{event.pk}/check-in/{wrong_code}/"
    assert stack.call("GET", wrong, headers=signed_in)[0] == 404
    _wait_for_jobs(stack)
    stack.stop_all()

    logs = stack.logs()
    tokens = {e.report_token for e in Entry.objects.filter(event=event)}
    secrets_ = tokens | {code, wrong_code, unknown_link, api_token, session}
    leaks = [
        (name, line)
        for name, lines in logs.items()
        for line in lines
        if any(secret in line for secret in secrets_)
    ]
    assert leaks == []
    # The logs saw all of it, redacted: otherwise finding nothing would prove nothing.
    access, errors = "\n".join(logs["web.stdout.log"]), "\n".join(logs["web.stderr.log"])
    assert access.count('"GET /r/[link]/?part=live HTTP/1.1" 304') == PLAYERS
    assert access.count(f'"{SITE}/r/[link]/"') == PLAYERS  # the referrer
    assert f"GET /events/{event.pk}/check-in/[code]/ HTTP/1.1" in access
    assert f"next=/events/{event.pk}/check-in/[code]/" in access
    assert "Not Found: /r/[link]/" in errors and "Bad Request: /api/v1/report/[link]/" in errors
    assert f"Not Found: /events/{event.pk}/check-in/[code]/" in errors
    worker = "\n".join(logs["worker.stdout.log"] + logs["worker.stderr.log"])
    assert "tournaments.tasks.send_table_emails" in worker and "succeeded" in worker
