"""Keeping players' private links out of the logs.

A private link (``/r/<token>/``, ``/api/v1/report/<token>/``) is the player's credential: whoever
reads it can report their results. Access logs and warnings ("Bad Request: /api/v1/report/...")
would otherwise keep every token of the weekend in plain text. ``redact`` replaces the token
with ``[link]``; ``RedactPrivateLinks`` applies it to every record the site's handlers write,
and ``RedactingGunicornLogger`` to gunicorn's access log (``gunicorn.conf.py`` names it).
"""

from __future__ import annotations

import logging
import re

from gunicorn.glogging import Logger as GunicornLogger

_PRIVATE_LINK = re.compile(r"(/(?:api/v1/report|r)/)[^/?#\s\"']+")


def redact(text: str) -> str:
    return _PRIVATE_LINK.sub(r"\1[link]", text)


def _clean(value):
    return redact(value) if isinstance(value, str) else value


class RedactPrivateLinks(logging.Filter):
    """Rewrites the message and its arguments; never drops a record."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = _clean(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_clean(arg) for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: _clean(arg) for key, arg in record.args.items()}
        return True


class RedactingGunicornLogger(GunicornLogger):
    """gunicorn's logger with every access-log field (request line, path, referrer...) redacted."""

    def atoms(self, resp, req, environ, request_time):
        return {
            key: _clean(value)
            for key, value in super().atoms(resp, req, environ, request_time).items()
        }
