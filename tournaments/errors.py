"""The error every service raises for input a person can fix.

``ServiceError(message, field=...)`` carries the field it is about (or None) and a ``code``
naming the rule; pages show it as a form error, the API as a 400 with the field and the code.
"""

from __future__ import annotations


class ServiceError(Exception):
    def __init__(self, message: str, *, field: str | None = None, code: str = "invalid"):
        super().__init__(message)
        self.message = message
        self.field = field
        self.code = code


class Blocked(ServiceError):
    """A step refused for several reasons at once: ``blockers`` (``selectors.waiting.Blocker``,
    each with the page that settles it) are all named, in the message too."""

    def __init__(self, lead: str, blockers: list, *, code: str = "not_ready"):
        self.lead = lead
        self.blockers = list(blockers)
        listed = "; ".join(blocker.text for blocker in self.blockers)
        super().__init__(f"{lead} {listed}.", code=code)


class RowErrors(ServiceError):
    """Several problems found in one import; nothing was saved."""

    def __init__(self, errors: list[tuple[int, str, str]]):
        self.errors = errors
        lines = [f"Row {row}, {field}: {message}" for row, field, message in errors]
        super().__init__("; ".join(lines), field="file", code="invalid_rows")


class Conflict(ServiceError):
    """The request clashes with one already answered (the API answers 409, not 400): e.g. an
    ``Idempotency-Key`` sent again with another body."""
