"""Path converters.

- ``num``: a whole number of at most 18 digits, for ids and numbers in URLs. Django's ``int``
  takes any number of digits, and a 30-digit id reached the database as a server error; with
  ``num`` it is simply a page that does not exist (404). 18 digits stay below the largest
  64-bit integer, which every id fits in.
- ``link``: a private link's secret (a player's ``report_token``, an event's check-in code):
  1 to 64 characters of ``secrets.token_urlsafe``'s alphabet (A-Z a-z 0-9 _ -), which is also
  the alphabet of ``django.core.signing``'s signatures. Anything else (a NUL byte, a percent
  sign, a space, a letter outside ASCII) cannot be a link, so the URL does not match and the
  answer is a 404 before any query: PostgreSQL refuses a NUL in a string outright, which was a
  server error.

``link_path(name, token)``: ``reverse(name, kwargs={"token": token})`` for a route with one
``link``, from the route's two halves worked out once per process (a ``reverse()`` is about
40 us; a player's page opening made three of them, 3% of its time).
"""

import re

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse
from django.urls.converters import IntConverter, StringConverter

MAX_DIGITS = 18
LINK_MAX_LENGTH = 64  # Entry.report_token's max_length
LINK_ALPHABET = "A-Za-z0-9_-"


class NumConverter(IntConverter):
    regex = f"[0-9]{{1,{MAX_DIGITS}}}"


class LinkConverter(StringConverter):
    regex = f"[{LINK_ALPHABET}]{{1,{LINK_MAX_LENGTH}}}"


_LINK = re.compile(LinkConverter.regex)
_MARK = "0link0"  # stands for the token while the route's halves are worked out
_halves: dict[tuple, tuple[str, str]] = {}


def is_link(token: str) -> bool:
    """Whether ``token`` is made only of a link's characters, at a link's length."""
    return _LINK.fullmatch(token) is not None


def link_path(name: str, token: str) -> str:
    """The path of route ``name`` for private link ``token`` (the route's only argument)."""
    if not is_link(token):  # not a link: the route does not match it (NoReverseMatch)
        return reverse(name, kwargs={"token": token})
    # The request's URL configuration (None outside a request: the settings' own).
    here = (get_urlconf() or settings.ROOT_URLCONF, get_script_prefix(), name)
    halves = _halves.get(here)
    if halves is None:
        before, mark, after = reverse(name, kwargs={"token": _MARK}).partition(_MARK)
        halves = _halves[here] = (before, after)
    return halves[0] + token + halves[1]
