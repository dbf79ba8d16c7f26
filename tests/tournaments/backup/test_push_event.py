"""Venue mode and the way back: ``python -m config.venue`` serves Pegboard as production does
(here it is also the "main site", a second Django server process with its own SQLite
database), and ``manage.py push_event`` sends an event played here to it with a real API
token; the main site refuses the same event a second time, saying how to go on. With
``--with-links`` the players' private links arrive and work there. Each try is a line of the
event's history here: when, to which site, and the answer (never the token)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from tests.conftest import REPO
from tournaments.models import AuditEntry, CardLine, Event, Table
from tournaments.services.results import card_line_report

pytestmark = pytest.mark.django_db
DIRECTOR, PASSWORD = "main-director", "a-main-site-password-1"


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str, token: str | None = None) -> tuple[int, dict, bytes]:
    headers = {"Authorization": f"Token {token}"} if token else {}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, dict(refused.headers), refused.read()


def _post_json(url: str, body: dict) -> tuple[int, bytes]:
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read()


@pytest.fixture(scope="module")
def main_site(tmp_path_factory):
    """A venue server started the documented way, with its director made from the
    environment; yields its address and a token from its token endpoint."""
    port, folder = _free_port(), tmp_path_factory.mktemp("venue")
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTEST", "PEGBOARD_TEST", "DATABASE_URL")) and k != "DEBUG"
    }
    env.update(DJANGO_SUPERUSER_USERNAME=DIRECTOR, DJANGO_SUPERUSER_PASSWORD=PASSWORD)
    log = open(folder / "venue.log", "w")  # noqa: SIM115 (closed below)
    process = subprocess.Popen(
        [sys.executable, "-m", "config.venue", "--port", str(port), "--dir", str(folder)],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    site = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while True:
            try:
                urllib.request.urlopen(site + "/", timeout=10)
                break
            except OSError:  # refused, reset, or a first page slower than the wait (loaded CI)
                if process.poll() is not None or time.monotonic() > deadline:
                    log.flush()
                    pytest.fail("the venue server did not start:\n" + (folder / "venue.log")
                                .read_text()[-3000:])  # fmt: skip
                time.sleep(0.5)
        body = json.dumps({"username": DIRECTOR, "password": PASSWORD}).encode()
        request = urllib.request.Request(
            site + "/api/v1/auth/token/", data=body, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request) as answer:
            token = json.loads(answer.read())["token"]
        yield site, token, folder
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


def test_the_venue_serves_with_production_settings(main_site):
    site, _, folder = main_site
    printed = (folder / "venue.log").read_text()
    assert re.search(r"Pegboard is served at  http://[0-9.]+:[0-9]+/", printed)
    assert "█" in printed or "▀" in printed  # the QR code, drawn in the terminal
    status, headers, page = _get(site + "/")
    assert status == 200 and "Strict-Transport-Security" not in headers  # plain HTTP, no HSTS
    status, _, missing = _get(site + "/no-such-page/")
    assert status == 404 and b"Traceback" not in missing and b"URLconf" not in missing
    css = re.search(rb'href="(/static/css/pegboard\.[0-9a-f]+\.css)"', page)
    assert css, "static files are served under their hashed names (whitenoise, manifest)"
    assert _get(site + css.group(1).decode())[0] == 200
    assert (folder / "pegboard.sqlite3").exists()


def test_an_event_is_pushed_once_and_refused_the_second_time(main_site, event_in_play, capsys):
    site, token, _ = main_site
    event = event_in_play(10)
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    a, b = table.seats.order_by("position")
    card_line_report(seat=a, won=True, spread=14)
    card_line_report(seat=b, won=False, spread=14)

    call_command("push_event", event.pk, "--to", site, "--token", token)
    sent = re.search(r"event (\d+),", capsys.readouterr().out)
    assert sent, "push_event names the event's id on the main site"
    status, _, body = _get(f"{site}/api/v1/events/{sent.group(1)}/backup/", token)
    assert status == 200  # the token's account directs it there
    there = json.loads(body)
    assert there["event"]["name"] == event.name and len(there["entries"]) == 10
    lines = [line for game in there["games"] for seat in game["seats"] for line in seat["lines"]]
    assert len(lines) >= 3  # two reported lines and the verified one(s) of table 1

    with pytest.raises(CommandError) as refused:
        call_command("push_event", event.pk, "--to", site, "--token", token)
    assert "The main site already holds this event" in str(refused.value)
    assert "delete the one here and send again" in str(refused.value)
    events = json.loads(_get(f"{site}/api/v1/events/", token)[2])["results"]
    assert [e["name"] for e in events].count(event.name) == 1


def test_a_wrong_token_or_address_is_refused_saying_what_to_do(main_site, event_in_play):
    site, _, _ = main_site
    event = event_in_play(10)
    with pytest.raises(CommandError, match="refused the token.*auth/token"):
        call_command("push_event", event.pk, "--to", site, "--token", "0" * 40)
    with pytest.raises(CommandError, match="plain HTTP"):
        call_command("push_event", event.pk, "--to", "http://main.example", "--token", "x")
    with pytest.raises(CommandError, match="No event 999999"):
        call_command("push_event", 999999, "--to", site, "--token", "x")


def _pushes(event) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(event=event, action="event_push").order_by("pk"))


def test_with_links_the_players_links_arrive_and_work_on_the_main_site(
    main_site, event_in_play, capsys
):
    site, token, _ = main_site
    event = event_in_play(10)
    table = Table.objects.get(game__event=event, game__number=1, number=2)
    a, b = (seat.entry for seat in table.seats.order_by("position"))

    call_command("push_event", event.pk, "--to", site, "--token", token, "--with-links")
    there = re.search(r"event (\d+),", capsys.readouterr().out).group(1)
    status, _, body = _get(f"{site}/api/v1/events/{there}/backup/?tokens=true", token)
    assert status == 200
    links = {e["report_token"] for e in json.loads(body)["entries"]}
    assert a.report_token in links and b.report_token in links  # the same links as here
    # The QR code on the player's scorecard opens their page on the main site...
    status, _, page = _get(f"{site}/r/{a.report_token}/")
    assert status == 200 and a.name in page.decode()
    # ... and reports there: both players of table 2, verified on the main site.
    for entry, won in ((a, True), (b, False)):
        answer = _post_json(
            f"{site}/api/v1/report/{entry.report_token}/",
            {"result": "won" if won else "lost", "margin": 17},
        )
        assert answer[0] == 201, answer
    mine = json.loads(_get(f"{site}/api/v1/report/{a.report_token}/")[2])
    assert mine["current"]["state"] == "verified"
    assert not CardLine.objects.filter(seat__table=table).exists()  # nothing changed here

    # Sent again: the main site holds it; the refusal says so and how to go on.
    with pytest.raises(CommandError) as refused:
        call_command("push_event", event.pk, "--to", site, "--token", token, "--with-links")
    assert "The main site already holds this event" in str(refused.value)
    # Renamed here and sent again with its links: the links are the main site's already.
    Event.objects.filter(pk=event.pk).update(name=event.name + " (laptop copy)")
    with pytest.raises(CommandError) as refused:
        call_command("push_event", event.pk, "--to", site, "--token", token, "--with-links")
    said = str(refused.value)
    assert "already holds these players' private links" in said
    assert "run push_event without --with-links" in said
    assert [p.after["sent"] for p in _pushes(event)] == [True, False, False]


def test_each_push_is_in_the_events_history_with_the_site_and_the_answer(
    main_site, event_in_play, capsys
):
    site, token, _ = main_site
    event = event_in_play(10)
    call_command("push_event", event.pk, "--to", site, "--token", token)
    there = int(re.search(r"event (\d+),", capsys.readouterr().out).group(1))
    with pytest.raises(CommandError):
        call_command("push_event", event.pk, "--to", site, "--token", "0" * 40)
    with pytest.raises(CommandError, match="Cannot reach"):
        call_command("push_event", event.pk, "--to", "http://127.0.0.1:9", "--token", token)

    taken, bad_token, unreached = _pushes(event)
    assert taken.after == {
        "site": site, "include_tokens": False, "status": 201, "sent": True,
        "event_there": there, "answer": taken.after["answer"],
    }  # fmt: skip
    assert taken.summary.startswith(f"Sent to the main site {site} (no private links): taken.")
    assert f"event {there}," in taken.summary and taken.kind == AuditEntry.Kind.SETTINGS
    assert (bad_token.after["status"], bad_token.after["sent"]) == (401, False)
    assert "refused the token" in bad_token.summary
    assert (unreached.after["status"], unreached.after["site"]) == (None, "http://127.0.0.1:9")
    assert "not reached" in unreached.summary and "nothing was sent" in unreached.summary
    for push in (taken, bad_token, unreached):
        assert token not in json.dumps(push.after) + push.summary  # the token is a password
        assert push.created_at is not None
    # The director reads it on the event's history page.
    from django.test import Client

    client = Client()
    client.force_login(event.director)
    history = client.get(reverse("event-history", args=[event.pk])).content.decode()
    assert f"Sent to the main site {site}" in history
