"""Players' private links and events' check-in codes never reach the logs: warnings, runserver's
lines, logged exceptions, the Celery worker's handlers and gunicorn's access and error logs
name the page with ``[link]`` or ``[code]`` instead of the secret. (The whole production stack,
searched line by line: ``test_no_secret_in_any_log.py``.)"""

import io
import logging
from types import SimpleNamespace

import pytest
from gunicorn.glogging import SafeAtoms
from rest_framework.test import APIClient

from config.logging import RedactingGunicornLogger, RedactPrivateLinks, redact, redact_handlers


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


def test_only_the_atoms_the_format_prints_are_made_and_each_is_redacted():
    """gunicorn makes an atom of every header and WSGI variable; the log prints those its
    format names: those only are redacted and handed on (a name missing prints "-")."""
    defaults = _gunicorn_defaults()
    named = "%(r)s %({Referer}i)s %({x-link}o)s %(a)s"
    logger = RedactingGunicornLogger(SimpleNamespace(**{**defaults, "access_log_format": named}))
    environ = {
        "REQUEST_METHOD": "POST",
        "RAW_URI": "/api/v1/report/SECRET123/",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_COOKIE": "sessionid=abc",
    }
    request = [("REFERER", "https://site/r/SECRET123/")]
    response = SimpleNamespace(status="201", sent=9, headers=[("X-Link", "/r/SECRET123/")])
    atoms = logger.atoms(response, request, environ, SimpleNamespace(seconds=0, microseconds=5))
    assert atoms == {
        "r": "POST /api/v1/report/[link]/ HTTP/1.1",
        "{referer}i": "https://site/r/[link]/",
        "{x-link}o": "/r/[link]/",
        "a": "-",
    }
    line = named % SafeAtoms(atoms)
    assert "SECRET123" not in line and "sessionid" not in line


def _gunicorn_defaults() -> dict:
    from gunicorn.config import Config

    config = Config()
    return {name: setting.get() for name, setting in config.settings.items()}


def test_the_filter_rewrites_arguments_too():
    record = logging.LogRecord("x", logging.WARNING, "f", 1, "%s %s", ("/r/T0K3N/", 5), None)
    RedactPrivateLinks().filter(record)
    assert record.getMessage() == "/r/[link]/ 5"


@pytest.mark.parametrize(
    ("text", "left"),
    [
        ('"GET /events/12/check-in/Zk3-q_9AbCdEfGhIjKlMn/ HTTP/1.1" 302', "/events/12/check-in/"),
        ("Not Found: /events/7/check-in/Zk3-q_9AbCdEfGhIjKlMn/", "Not Found: /events/7/"),
        ("GET /accounts/login/?next=/events/3/check-in/Zk3-q_9AbCdEfGhIjKlMn/", "next=/events/3/"),
        ("GET /accounts/login/?next=%2Fevents%2F3%2Fcheck-in%2FZk3-q_9AbCdEfGhIjKlMn%2F", "next="),
        ("GET /accounts/login/?next=%2Fr%2FZk3-q_9AbCdEfGhIjKlMn%2F&x=1", "&x=1"),
        ("GET /r/Zk3-q_9AbCdEfGhIjKlMn%00/", "GET /r/"),
    ],
)
def test_check_in_codes_and_encoded_links_are_replaced(text, left):
    assert "Zk3-q_9AbCdEfGhIjKlMn" not in redact(text)
    assert left in redact(text)
    assert "[code]" in redact(text) or "[link]" in redact(text)


def test_the_check_in_desks_own_pages_are_left_alone():
    for text in ("/events/12/check-in/", "/events/12/check-in/everyone/"):
        assert redact(text) == text


def test_postgresqls_words_about_a_link_are_replaced():
    text = "DETAIL:  Key (report_token)=(Zk3-q_9AbCdEfGhIjKlMn) already exists."
    assert redact(text) == "DETAIL:  Key (report_token)=([link]) already exists."


def _record(msg, args=(), exc_info=None):
    return logging.LogRecord("x", logging.ERROR, "f", 1, msg, args, exc_info)


def test_the_filter_redacts_the_text_of_a_logged_exception():
    try:
        raise ValueError("no entry for /r/S3CRET-T0KEN/ at /events/4/check-in/C0DE-C0DE/")
    except ValueError:
        import sys

        record = _record("Internal Server Error: %s", ("/r/S3CRET-T0KEN/",), sys.exc_info())
    RedactPrivateLinks().filter(record)
    written = logging.Formatter().format(record)
    assert "S3CRET-T0KEN" not in written and "C0DE-C0DE" not in written
    assert "ValueError: no entry for /r/[link]/ at /events/4/check-in/[code]/" in written


def test_the_filter_redacts_arguments_of_any_type():
    record = _record("%s then %s", ({"path": "/r/S3CRET/"}, ["/api/v1/report/S3CRET/"]))
    RedactPrivateLinks().filter(record)
    assert "S3CRET" not in record.getMessage()


def test_handlers_installed_by_others_get_the_filter():
    """The Celery worker replaces the root logger's handlers with its own at start."""
    stream = io.StringIO()
    logger = logging.getLogger("pegboard-test-worker")
    handler = logging.StreamHandler(stream)
    logger.addHandler(handler)
    try:
        redact_handlers(logger)
        redact_handlers(logger)  # twice: still one filter
        logger.warning("sent to %s", "https://site/r/S3CRET/")
    finally:
        logger.removeHandler(handler)
    assert stream.getvalue() == "sent to https://site/r/[link]/\n"
    assert len(handler.filters) == 1


@pytest.mark.parametrize("signal_name", ["after_setup_logger", "after_setup_task_logger"])
def test_the_celery_app_redacts_the_workers_handlers(signal_name):
    from celery import signals

    import config.celery  # noqa: F401  (connects the receivers)

    logger = logging.getLogger(f"pegboard-test-{signal_name}")
    handler = logging.StreamHandler(io.StringIO())
    logger.addHandler(handler)
    try:
        getattr(signals, signal_name).send(
            sender=None,
            logger=logger,
            loglevel=logging.INFO,
            logfile=None,
            format="",
            colorize=False,
        )
    finally:
        logger.removeHandler(handler)
    assert [type(f) for f in handler.filters] == [RedactPrivateLinks]


def test_gunicorns_error_log_is_redacted():
    from gunicorn.config import Config

    logger = RedactingGunicornLogger(Config())
    stream = io.StringIO()
    logger.error_log.handlers[0].setStream(stream)
    logger.error("Invalid request from ip=1.2.3.4: bad line GET /events/1/check-in/C0DE/ HTTP")
    assert "C0DE" not in stream.getvalue() and "/check-in/[code]/" in stream.getvalue()


def test_djangos_password_reset_token_is_replaced():
    text = '"GET /accounts/reset/MTI/cz1abc-0123456789abcdef0123456789abcdef/ HTTP/1.1" 302'
    assert redact(text) == '"GET /accounts/reset/MTI/[token]/ HTTP/1.1" 302'
    page = "/accounts/reset/MTI/set-password/"
    assert redact(page) == page


def test_allauths_emailed_keys_and_invitations_are_replaced():
    assert redact("GET /accounts/confirm-email/MQ:1abc:xyz/ 200") == (
        "GET /accounts/confirm-email/[token]/ 200"
    )
    assert redact("/accounts/password/reset/key/1-abc-def/") == (
        "/accounts/password/reset/key/[token]/"
    )
    assert redact("/invitations/Zk3_q-9/?next=1") == "/invitations/[token]/?next=1"
    assert redact("/accounts/confirm-email/") == "/accounts/confirm-email/"
