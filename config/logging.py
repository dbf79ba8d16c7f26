"""Keeping players' private links and events' check-in codes out of the logs.

A private link (``/r/<token>/``, ``/api/v1/report/<token>/``) is the player's credential: whoever
reads it can report their results. An event's check-in code (``/events/<id>/check-in/<code>/``)
checks in whoever holds it. Access logs and warnings ("Not Found: /api/v1/report/...") would
otherwise keep every secret of the weekend in plain text.

``redact`` replaces a token with ``[link]`` and a code with ``[code]`` (and the token of
Django's and allauth's password reset links, allauth's address confirmation link and an
invitation's link with ``[token]``), also where a path is
percent-encoded (a ``?next=`` after a sign-in redirect) and in PostgreSQL's words about a
private link column ("Key (report_token)=(...)"). It is applied by:

- ``RedactPrivateLinks``: every record the site's handlers write (Django's, and the Celery
  worker's, see ``redact_handlers``): the message, its arguments, and the text of an exception
  or a stack logged with it;
- ``RedactingGunicornLogger``: gunicorn's access log (each field: request line, path, referrer)
  and its error log (``gunicorn.conf.py`` names it).
"""

from __future__ import annotations

import functools
import logging
import re

from gunicorn.glogging import Logger as GunicornLogger

_SLASH = r"(?:/|%2F)"  # a path as it is, or percent-encoded inside a query string
_SECRET = r"(?:[^/?#&\s\"'%]|%(?!2F)[0-9A-Fa-f]{2})+"  # up to the next (encoded) slash
_PRIVATE_LINK = re.compile(
    rf"({_SLASH}(?:api{_SLASH}v1{_SLASH}report|r){_SLASH}){_SECRET}", re.IGNORECASE
)
# "everyone" is the desk's own page (check in everyone present), not a code.
_CHECK_IN_CODE = re.compile(
    rf"({_SLASH}events{_SLASH}[0-9]+{_SLASH}check-in{_SLASH})(?!everyone(?:{_SLASH}|$)){_SECRET}",
    re.IGNORECASE,
)
# Django's password reset link (its e-mail's /accounts/reset/<uid>/<token>/): the token
# resets the password; "set-password" is the page Django sends it on to, not a token.
_PASSWORD_RESET = re.compile(
    rf"({_SLASH}accounts{_SLASH}reset{_SLASH}[^/?#&\s\"']+{_SLASH})"
    rf"(?!set-password(?:{_SLASH}|$)){_SECRET}",
    re.IGNORECASE,
)
# allauth's e-mailed links (confirm an address, reset a password), an invitation to hold a
# role and a registration request's private page: each key is the credential for what it opens.
_ACCOUNT_KEY = re.compile(
    rf"({_SLASH}(?:accounts{_SLASH}confirm-email|accounts{_SLASH}password{_SLASH}reset{_SLASH}key"
    rf"|invitations|registration|api{_SLASH}v1{_SLASH}registrations{_SLASH}private)"
    rf"{_SLASH}){_SECRET}",
    re.IGNORECASE,
)
_TOKEN_COLUMN = re.compile(r"(\((?:previous_)?report_token\)=\()[^)]*")


@functools.cache
def _used(access_log_format: str) -> tuple[str, ...]:
    """The atoms a gunicorn access-log format names (``%(h)s``, ``%({x-forwarded-for}i)s``),
    as gunicorn looks them up (a header's or variable's name in lower case)."""
    names = re.findall(r"%\(([^)]*)\)", access_log_format)
    return tuple(dict.fromkeys(n.lower() if n.startswith("{") else n for n in names))


def redact(text: str) -> str:
    text = _PRIVATE_LINK.sub(r"\1[link]", text)
    text = _CHECK_IN_CODE.sub(r"\1[code]", text)
    text = _PASSWORD_RESET.sub(r"\1[token]", text)
    text = _ACCOUNT_KEY.sub(r"\1[token]", text)
    return _TOKEN_COLUMN.sub(r"\1[link]", text)


def _clean(value):
    return redact(value) if isinstance(value, str) else value


class RedactPrivateLinks(logging.Filter):
    """Rewrites the message (formatted with its arguments, whatever their types) and the text
    of its exception and stack; never drops a record."""

    _format = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a bad format string: the handler reports it as logging does
            message = None
        if message is not None:
            record.msg, record.args = redact(message), ()
        if record.exc_info and not record.exc_text:
            # A formatter uses exc_text when it is set: written here, it is written redacted.
            record.exc_text = self._format.formatException(record.exc_info)
        record.exc_text = _clean(record.exc_text)
        record.stack_info = _clean(record.stack_info)
        return True


def redact_handlers(logger: logging.Logger | None = None, **kwargs) -> None:
    """Put the filter on every handler of ``logger`` (the root one by default): for handlers
    that others install, such as the Celery worker's (``config.celery`` connects this to its
    ``after_setup_logger`` and ``after_setup_task_logger`` signals)."""
    for handler in (logger or logging.getLogger()).handlers:
        if not any(isinstance(f, RedactPrivateLinks) for f in handler.filters):
            handler.addFilter(RedactPrivateLinks())


class RedactingGunicornLogger(GunicornLogger):
    """gunicorn's logger with every access-log field (request line, path, referrer...) and every
    error-log record redacted."""

    def setup(self, cfg) -> None:
        super().setup(cfg)
        self.error_log.addFilter(RedactPrivateLinks())

    def atoms(self, resp, req, environ, request_time):
        """The atoms the access log's format names, redacted; no other (gunicorn prints "-"
        for a name missing here). gunicorn makes one of every request header, response header
        and WSGI variable, some forty: redacting them all was 8% of a worker's time under
        load, for the nine the default format prints."""
        every = super().atoms(resp, req, environ, request_time)
        return {
            key: _clean(every[key]) for key in _used(self.cfg.access_log_format) if key in every
        }
