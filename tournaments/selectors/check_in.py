"""The event's check-in code: which code is current, and what an older one is.

Terms:

- check-in code: shown at the desk as a QR code (``/events/<id>/check-in/<code>/``); a
  signed-in player whose account is linked to their player record opens it and checks in their
  own entry. It is derived from the event's id and ``Event.check_in_code_version`` with the
  site's secret (``django.core.signing``), so nothing secret is stored and a guessed code is
  unknown.
- version: 0 for the code every event had before codes could be replaced (the same code, so
  printed desk cards keep working); a director's "new code" raises it and the older codes are
  *replaced*.
- a code works only while registration is open: after that, players check in at the desk.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing
from django.urls import reverse
from django.utils.crypto import constant_time_compare

from tournaments.models import Event

CODE_SALT = "pegboard.event-check-in"
CODE_LENGTH = 22  # 132 bits of the signature: as hard to guess as it needs to be, short in a QR


def _code(event_id: int, version: int) -> str:
    value = str(event_id) if version == 0 else f"{event_id}:{version}"
    return signing.Signer(salt=CODE_SALT).signature(value)[:CODE_LENGTH]


def event_check_in_code(event: Event) -> str:
    """The event's current check-in code."""
    return _code(event.pk, event.check_in_code_version)


def check_in_code_state(*, event: Event, code: str) -> str | None:
    """ "current" (and registration is open), "closed" (current, registration closed),
    "replaced" (an older code of this event), or None (not a code of this event)."""
    if constant_time_compare(code, event_check_in_code(event)):
        return "current" if event.stage == Event.Stage.REGISTRATION else "closed"
    older = range(event.check_in_code_version)
    if any(constant_time_compare(code, _code(event.pk, version)) for version in older):
        return "replaced"
    return None


@dataclass(frozen=True)
class CheckInCode:
    """The event's current code as the desk shows it: ``path`` is the page a player opens;
    ``active`` is False once registration has closed (the code then checks nobody in)."""

    code: str
    path: str
    version: int
    active: bool


def check_in_code_current(*, event: Event) -> CheckInCode:
    code = event_check_in_code(event)
    return CheckInCode(
        code=code,
        path=reverse("event-check-in-code", args=[event.pk, code]),
        version=event.check_in_code_version,
        active=event.stage == Event.Stage.REGISTRATION,
    )
