"""Players' private links never reach the logs: warnings, runserver's lines and gunicorn's
access log name the page with ``[link]`` instead of the token."""

import io
import logging
from types import SimpleNamespace

import pytest
from rest_framework.test import APIClient

from config.logging import RedactingGunicornLogger, RedactPrivateLinks, redact


@pytest.mark.parametrize(
    "text",
    [
        "Bad Request: /api/v1/report/Ab-9_xYz/",
        '"GET /r/Ab-9_xYz/?x=1 HTTP/1.1" 200',
        "https://pegboard.example/r/Ab-9_xYz/",
        "POST /api/v1/report/Ab-9_xYz/match/",
    ],
)
def test_tokens_are_replaced(text):
    assert "Ab-9_xYz" not in redact(text) and "[link]" in redact(text)


def test_other_addresses_are_left_alone():
    for text in ("/events/12/results/", "/api/v1/events/3/games/1/", "/rulings/4/"):
        assert redact(text) == text


@pytest.mark.django_db
def test_a_refused_report_is_logged_without_its_token(event_in_play):
    event = event_in_play(10)
    token = event.entries.first().report_token
    console = next(h for h in logging.getLogger().handlers if h.get_name() == "console")
    stream = io.StringIO()
    previous = console.setStream(stream)
    try:
        response = APIClient().post(f"/api/v1/report/{token}/", {"result": "won", "margin": -3})
    finally:
        console.setStream(previous)
    assert response.status_code == 400
    written = stream.getvalue()
    assert "Bad Request: /api/v1/report/[link]/" in written and token not in written


def test_gunicorns_access_log_fields_are_redacted():
    logger = RedactingGunicornLogger(SimpleNamespace(**_gunicorn_defaults()))
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": "/r/SECRET123/",
        "PATH_INFO": "/r/SECRET123/",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_REFERER": "https://site/r/SECRET123/",
    }
    response = SimpleNamespace(status="200 OK", sent=10, headers=[])
    atoms = logger.atoms(response, [], environ, SimpleNamespace(seconds=0, microseconds=5))
    assert "SECRET123" not in repr(atoms)
    assert atoms["r"] == "GET /r/[link]/ HTTP/1.1"


def _gunicorn_defaults() -> dict:
    from gunicorn.config import Config

    config = Config()
    return {name: setting.get() for name, setting in config.settings.items()}


def test_the_filter_rewrites_arguments_too():
    record = logging.LogRecord("x", logging.WARNING, "f", 1, "%s %s", ("/r/T0K3N/", 5), None)
    RedactPrivateLinks().filter(record)
    assert record.getMessage() == "/r/[link]/ 5"
