"""A real SMTP server on loopback (aiosmtpd) that keeps what it receives.

With DEBUG off Pegboard sends e-mail by SMTP and refuses the console and file backends (they
would write private links into logs). Tests and benchmarks that start production settings point
``EMAIL_HOST``/``EMAIL_PORT`` here (``SmtpSink.env()``) so the worker's e-mails are really
sent, and a test can read each message as the player would get it.
"""

from __future__ import annotations

import email
import email.policy
import socket
import threading
import time
from email.message import EmailMessage

from aiosmtpd.controller import Controller


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class SmtpSink:
    """``with SmtpSink() as sink:`` (or ``start()``/``stop()``) serves SMTP on ``sink.port``."""

    def __init__(self) -> None:
        self.port = _free_port()
        self.messages: list[EmailMessage] = []
        self._lock = threading.Lock()
        self._controller = Controller(self, hostname="127.0.0.1", port=self.port)

    def start(self) -> None:
        self._controller.start()

    def stop(self) -> None:
        self._controller.stop()

    def __enter__(self) -> SmtpSink:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def env(self) -> dict[str, str]:
        """The settings that send a process's e-mail here."""
        return {
            "EMAIL_BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "EMAIL_HOST": "127.0.0.1",
            "EMAIL_PORT": str(self.port),
        }

    async def handle_DATA(self, server, session, envelope) -> str:  # aiosmtpd's handler hook
        message = email.message_from_bytes(envelope.content, policy=email.policy.default)
        with self._lock:
            self.messages.append(message)
        return "250 Message accepted"

    def wait_for(self, count: int, *, timeout: float = 60.0) -> list[EmailMessage]:
        """The first ``count`` messages, once that many arrived (AssertionError otherwise)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if len(self.messages) >= count:
                    return list(self.messages)
            time.sleep(0.2)
        raise AssertionError(f"{len(self.messages)} of {count} e-mails arrived in {timeout} s")


def body_of(message: EmailMessage) -> str:
    """The text a player reads (quoted-printable or base64 undone)."""
    return message.get_body(preferencelist=("plain",)).get_content()
