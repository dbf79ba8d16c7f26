"""What a name, an e-mail address, a phone number and an ACC number may be, checked in one
place for forms, the API, CSV imports and backups alike.

- name: a person's, an event's or a club's name as typed, without control characters (a line
  break in a name would break every page, e-mail header and CSV row that prints it), at most
  200 characters once the spaces around it are taken off.
- e-mail address: one address, as Django's validator reads one ("a@b.org, c@d.org" is two
  and is refused), at most 254 characters.
- phone: free text as people write numbers ("+1 (555) 010-7788 ext. 2"), without control
  characters, at most 40.
- ACC number: letters, digits and hyphens, at most 20.
- play date: the day an event or club night is played, from 1 January 1970 to two years
  ahead of today (a year 9999 is a slip of the keyboard, never a plan).

Each ``clean_*`` returns the value with the spaces around it taken off, or raises
``ServiceError`` naming ``field`` and the rule.
"""

from __future__ import annotations

import unicodedata
from datetime import date

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.utils import timezone

from tournaments.errors import ServiceError

NAME_LENGTH = 200
EMAIL_LENGTH = 254
PHONE_LENGTH = 40
ACC_LENGTH = 20
PLAY_DATE_EARLIEST = date(1970, 1, 1)
PLAY_DATE_YEARS_AHEAD = 2
_CONTROL = {"Cc", "Zl", "Zp"}


def has_control_characters(text: str) -> bool:
    return any(unicodedata.category(ch) in _CONTROL for ch in text)


def _plain(value: str, *, field: str, what: str, limit: int) -> str:
    value = (value or "").strip()
    if has_control_characters(value):
        raise ServiceError(
            f"The {what} has a line break or another control character in it; type it on one line.",
            field=field,
            code="control_characters",
        )
    if len(value) > limit:
        raise ServiceError(f"At most {limit} characters.", field=field, code="too_long")
    return value


def clean_name(value: str, *, field: str = "name") -> str:
    name = _plain(value, field=field, what="name", limit=NAME_LENGTH)
    if not name:
        raise ServiceError("A name is required.", field=field, code="required")
    return name


def clean_email(value: str, *, field: str = "email") -> str:
    """An e-mail address, or "" when none is given."""
    address = _plain(value, field=field, what="e-mail address", limit=EMAIL_LENGTH)
    if not address:
        return ""
    try:
        validate_email(address)
    except ValidationError:
        raise ServiceError(
            f"{address!r} is not an e-mail address. Give one address, like name@example.org.",
            field=field,
            code="invalid_email",
        ) from None
    return address


def clean_phone(value: str, *, field: str = "phone") -> str:
    return _plain(value, field=field, what="phone number", limit=PHONE_LENGTH)


def clean_acc_number(value: str, *, field: str = "acc_number") -> str:
    """An ACC number, or "" when none is given."""
    number = _plain(value, field=field, what="ACC number", limit=ACC_LENGTH)
    if number and not (number.isascii() and number.replace("-", "").isalnum()):
        raise ServiceError(f"{number!r} is not an ACC number.", field=field, code="invalid")
    return number


def clean_play_date(value: date | None, *, field: str = "starts_on") -> date | None:
    """A day of play inside the window (see the module), or None when none is given."""
    if value is None:
        return None
    today = timezone.localdate()
    latest = today.replace(year=today.year + PLAY_DATE_YEARS_AHEAD, day=min(today.day, 28))
    if not PLAY_DATE_EARLIEST <= value <= latest:
        raise ServiceError(
            f"{value:%-d %B %Y} is not a day of play this site can take: give a date from "
            f"{PLAY_DATE_EARLIEST:%-d %B %Y} to {latest:%-d %B %Y}.",
            field=field,
            code="date_out_of_range",
        )
    return value
