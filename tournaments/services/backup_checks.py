"""Checking a backup's values before they are saved: ``backup_import`` reads every value of
the document through here (the document and its keys are described in ``backup``).

A backup is a file from outside, and anyone can write one. Every value the import keeps meets
the bounds and choices a director meets through the API or the pages, or the import is
refused (nothing is saved) with a message naming where.

- where: the place of a value in the document, as a refusal names it: the section, the row
  (its key, or its index from 0) and the field: ``entries[E3].email``,
  ``games[2].seats[5].lines[0].plus``.
- row: a JSON object of the document. It holds exactly the names its section lists: a name
  missing, or one the format does not have (a version 1 player's ``user``, say), is refused,
  never skipped.
- plain value: a column copied as it is stored, checked against the model's field: its type
  (a whole number is not ``true``, ``2.0`` or ``"2"``), the column's range (PostgreSQL's,
  whatever the database here, so a file refused on one is refused on every one), the field's
  validators (``qualifying_games`` 1 to 60...), its choices, its length, text without a NUL
  or half a surrogate pair (PostgreSQL refuses both), a date or a time with its UTC offset
  that parses, a JSON value nested at most ``JSON_DEPTH`` deep (a history row's state is 3
  deep) whose numbers are finite and fit a 64-bit column.
- name: a person's, an event's or a club's name (``NAMES``), checked by ``validation``: no
  line breaks or other control characters; e-mail addresses, phone numbers and ACC numbers
  are checked there too.
- reference: a key (``E1``, ``P1``), a user name or a club name; it must name a row of its
  section.
- private link: exactly what ``new_report_token`` makes (``LINK_LENGTH`` characters of
  ``LINK_ALPHABET``).
- model rule: a check constraint of the model (a tie playoff has two players, a ruling is at
  a table or in a match game...), checked on the unsaved row by Django's own constraint check
  (one query each; the import checks the most numerous rows' rules by hand instead).
"""

from __future__ import annotations

import datetime as dt
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from functools import cache
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations

from scoring.games import CardLine as EngineLine
from scoring.games import CardLineError, ScoringSettings, administrative_lines, validate_card_line
from tournaments.converters import LINK_ALPHABET
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, CardLine, Club, Entry, Event, Player
from tournaments.models.events import new_report_token
from tournaments.services.validation import (
    clean_acc_number,
    clean_email,
    clean_name,
    clean_phone,
    has_control_characters,
)

LINK_LENGTH = len(new_report_token())  # 32: secrets.token_urlsafe(24)
JSON_DEPTH = 16
_LINK = re.compile(f"[{LINK_ALPHABET}]{{{LINK_LENGTH}}}")
_RANGES = BaseDatabaseOperations.integer_field_ranges  # PostgreSQL's, on every database
_BIGGEST = _RANGES["BigIntegerField"]
# Lines a ruling or the no-show clock writes: the engine's administrative result.
_ADMINISTRATIVE = {CardLine.Source.RULING, CardLine.Source.FORFEIT}


def _optional_name(value: str, *, field: str) -> str:
    if has_control_characters(value):
        raise ServiceError(
            "It has a line break or another control character in it; it belongs on one line.",
            field=field,
            code="control_characters",
        )
    return value.strip()


@cache
def _names() -> dict[tuple[type[models.Model], str], Callable[..., str]]:
    user = get_user_model()
    return {
        (Player, "name"): clean_name,
        (Club, "name"): clean_name,
        (Event, "name"): clean_name,
        (Club, "city"): _optional_name,
        (Club, "region"): _optional_name,
        (AuditEntry, "actor_name"): _optional_name,
        (user, "first_name"): _optional_name,
        (user, "last_name"): _optional_name,
        (Player, "acc_number"): clean_acc_number,
        (Entry, "phone"): clean_phone,
    }


class BackupRefusal(ServiceError):
    """The backup refused at ``where`` (its ``field``), saying why and what would do."""

    def __init__(self, where: str, message: str, code: str = "invalid"):
        super().__init__(f"The backup is refused at {where}: {message}", field=where, code=code)


@contextmanager
def at(where: str) -> Iterator[None]:
    """A service's refusal of a value at ``where`` (``ServiceError`` naming its field), as the
    backup's refusal naming the place in the document."""
    try:
        yield
    except BackupRefusal:
        raise
    except ServiceError as exc:
        named = exc.field and exc.field != where.rsplit(".", 1)[-1]
        raise BackupRefusal(
            f"{where}.{exc.field}" if named else where, exc.message, exc.code
        ) from None


def shown(value: Any) -> str:
    """A value as a refusal quotes it: short, whatever was sent."""
    try:
        text = repr(value)
    except ValueError:  # a number of over 4,300 digits, somewhere in it
        return "a value with a number too long to show"
    return text if len(text) <= 40 else f"{text[:37]}..."


def _kind(value: Any) -> str:
    return {
        bool: "true or false", int: "a whole number", float: "a number with a fraction",
        str: "text", list: "a list", dict: "an object", type(None): "nothing (null)",
    }.get(type(value), type(value).__name__)  # fmt: skip


def _in(where: str, name: str) -> str:
    """Field ``name`` of the row at ``where`` ("" for the document itself: its sections are
    named as the API names a body's fields)."""
    return f"{where}.{name}" if where else name


def row(value: Any, where: str, names: Iterable[str]) -> dict[str, Any]:
    """``value``, a row holding exactly ``names`` (see the module)."""
    if not isinstance(value, dict):
        raise BackupRefusal(where, f"expected an object, found {_kind(value)}.", "not_an_object")
    names = tuple(names)
    missing = [name for name in names if name not in value]
    if missing:
        raise BackupRefusal(_in(where, missing[0]), "is missing.", "missing")
    unknown = sorted(str(name) for name in value if name not in names)
    if unknown:
        raise BackupRefusal(
            _in(where, unknown[0]),
            f"is not in a version 2 backup; a row here holds {', '.join(names)}.",
            "unknown_field",
        )
    return value


def rows(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise BackupRefusal(where, f"expected a list, found {_kind(value)}.", "not_a_list")
    return value


def key(data: dict, where: str, prefix: str) -> str:
    """The row's key (``E1``, ``P12``...)."""
    value = data["key"]
    if not isinstance(value, str) or not re.fullmatch(f"{prefix}[1-9][0-9]{{0,8}}", value):
        raise BackupRefusal(
            f"{where}.key", f"expected a key such as {prefix}1, found {shown(value)}.", "not_a_key"
        )
    return value


def ref(made: Mapping[str, Any], value: Any, where: str, what: str, *, required: bool) -> Any:
    """The row a reference names (None for none, where none is allowed)."""
    if value is None and not required:
        return None
    if not isinstance(value, str) or value not in made:
        raise BackupRefusal(
            where, f"names {what} {shown(value)}, which the backup does not hold.", "unknown_ref"
        )
    return made[value]


def unique(items: Iterable[tuple[Any, str]], what: str) -> None:
    """Refuse the second of two places holding the same value (``items``: value, where)."""
    seen: dict[Any, str] = {}
    for value, where in items:
        if value in seen:
            raise BackupRefusal(where, f"{what} is already at {seen[value]}.", "duplicate")
        seen[value] = where


def values(model: type[models.Model], data: Mapping, names: Iterable[str], where: str) -> dict:
    """The model's values for ``names`` of the row ``data``, each checked (see the module)."""
    return {name: value(model, name, data[name], f"{where}.{name}") for name in names}


def value(model: type[models.Model], name: str, raw: Any, where: str) -> Any:
    """One plain value of ``model``'s field ``name`` (see the module)."""
    field = model._meta.get_field(name)
    if raw is None:
        if field.null:
            return None
        raise BackupRefusal(where, "is empty (null); it needs a value.", "required")
    if isinstance(field, models.JSONField):
        return _json_value(raw, where)
    if isinstance(field, models.BooleanField):
        if not isinstance(raw, bool):
            raise BackupRefusal(where, f"expected true or false, found {shown(raw)}.", "not_bool")
        return raw
    if isinstance(field, models.IntegerField):
        checked = _whole(raw, _RANGES[field.get_internal_type()], where)
    elif isinstance(field, models.DateTimeField):
        checked = when(raw, where)
    elif isinstance(field, models.DateField):
        checked = _day(raw, where)
    elif isinstance(field, models.CharField | models.TextField):
        checked = _text(model, field, raw, where)
    else:  # a new kind of field in a copied model: say how to check it
        raise TypeError(f"backup_checks cannot check {model.__name__}.{name}")
    _validators(field, checked, where)
    return checked


def _whole(raw: Any, bounds: tuple[int, int], where: str) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool):
        raise BackupRefusal(
            where, f"expected a whole number, found {_kind(raw)}: {shown(raw)}.", "not_a_number"
        )
    low, high = bounds
    if not low <= raw <= high:
        raise BackupRefusal(where, f"{shown(raw)} is out of range ({low} to {high}).", "range")
    return raw


def when(raw: Any, where: str) -> dt.datetime:
    """A time with its UTC offset (ISO 8601)."""
    try:
        moment = dt.datetime.fromisoformat(raw) if isinstance(raw, str) else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise BackupRefusal(
            where,
            f"expected a time with its UTC offset, like 2026-05-01T14:30:00+00:00, found "
            f"{shown(raw)}.",
            "not_a_time",
        )
    return moment


def _day(raw: Any, where: str) -> dt.date:
    try:
        day = dt.date.fromisoformat(raw) if isinstance(raw, str) else None
    except ValueError:
        day = None
    if day is None:
        raise BackupRefusal(
            where, f"expected a date like 2026-05-01, found {shown(raw)}.", "not_a_date"
        )
    return day


def _plain_text(raw: Any, where: str) -> str:
    if not isinstance(raw, str):
        raise BackupRefusal(where, f"expected text, found {_kind(raw)}.", "not_text")
    if "\x00" in raw or any(unicodedata.category(ch) == "Cs" for ch in raw):
        raise BackupRefusal(
            where, "holds a NUL character or half a surrogate pair: not text.", "not_text"
        )
    return raw


def _text(model: type[models.Model], field: models.Field, raw: Any, where: str) -> str:
    text = _plain_text(raw, where)
    clean = _names().get((model, field.name))
    if isinstance(field, models.EmailField):
        clean = clean_email
    if clean is not None:
        try:
            text = clean(text, field=field.name)
        except ServiceError as exc:
            raise BackupRefusal(where, exc.message, exc.code) from None
    if field.choices and text not in {choice for choice, _ in field.flatchoices}:
        allowed = ", ".join(str(choice) for choice, _ in field.flatchoices)
        raise BackupRefusal(where, f"{shown(text)} is not one of: {allowed}.", "not_a_choice")
    if text == "" and not field.blank:
        raise BackupRefusal(where, "is empty; it needs a value.", "required")
    return text


def _validators(field: models.Field, checked: Any, where: str) -> None:
    if isinstance(field, models.EmailField):
        return  # validation.clean_email above
    for validator in field.validators:
        try:
            validator(checked)
        except ValidationError as exc:
            raise BackupRefusal(where, exc.messages[0], "invalid") from None


def _json_value(raw: Any, where: str, depth: int = 0) -> Any:
    """A JSON value as a JSON field may store it (see the module)."""
    if depth > JSON_DEPTH:
        raise BackupRefusal(where, f"is nested more than {JSON_DEPTH} deep.", "too_deep")
    if isinstance(raw, dict):
        for name, item in raw.items():
            _plain_text(name, where)
            _json_value(item, f"{where}.{name}", depth + 1)
    elif isinstance(raw, list):
        for index, item in enumerate(raw):
            _json_value(item, f"{where}[{index}]", depth + 1)
    elif isinstance(raw, str):
        _plain_text(raw, where)
    elif isinstance(raw, float) and not math.isfinite(raw):
        raise BackupRefusal(where, f"{raw} is not a number JSON can store.", "not_a_number")
    elif isinstance(raw, int) and not isinstance(raw, bool):
        _whole(raw, _BIGGEST, where)
    return raw


def number_in(raw: Any, low: int, high: int, where: str, what: str) -> int:
    """A whole number from ``low`` to ``high`` (``what`` says what bounds it)."""
    if not isinstance(raw, int) or isinstance(raw, bool) or not low <= raw <= high:
        raise BackupRefusal(where, f"{shown(raw)} is not {what} ({low} to {high}).", "range")
    return raw


def link(raw: Any, where: str, *, blank: bool = False) -> str:
    """A private link as Pegboard makes them (see the module); ``blank``: or none."""
    if blank and raw == "":
        return raw
    if not isinstance(raw, str) or not _LINK.fullmatch(raw):
        raise BackupRefusal(
            where,
            f"is not a private link as Pegboard makes them ({LINK_LENGTH} characters of "
            f"{LINK_ALPHABET}). Export the event without its private links to get new ones.",
            "not_a_link",
        )
    return raw


def card_line(line: Any, settings: ScoringSettings, where: str) -> None:
    """The engine's check of a line's figures, as the services make lines: a valid line under
    the event's scoring settings, or a ruling's or the no-show clock's administrative result."""
    figures = EngineLine(line.game_points, line.plus, line.minus)
    if line.source in _ADMINISTRATIVE and figures in administrative_lines(settings):
        return
    try:
        validate_card_line(figures, settings)
    except CardLineError as exc:
        raise BackupRefusal(f"{where}.{exc.field}", exc.message, "impossible_line") from None


def model_rules(obj: models.Model, where: str) -> None:
    """The model's check constraints on the unsaved row ``obj`` (see the module)."""
    for constraint in obj._meta.constraints:
        if isinstance(constraint, models.CheckConstraint):
            try:
                constraint.validate(type(obj), obj)
            except ValidationError:
                raise BackupRefusal(
                    where, f"breaks the rule {constraint.name!r} of its kind of row.", "rule"
                ) from None


def not_after(when: dt.datetime | None, now: dt.datetime, where: str) -> None:
    if when is not None and when > now:
        raise BackupRefusal(where, f"{when.isoformat()} is in the future.", "future")
