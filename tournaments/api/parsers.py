"""JSON request bodies, refused before decoding when they nest too deep.

- depth: how many arrays and objects are open at the deepest point of a body (``{}`` is 1,
  ``{"a": [1]}`` is 2). Brackets inside strings, escaped quotes included, do not count.

Python's JSON decoder recurses once per level and stops with a RecursionError near the
interpreter's limit (1,000); a 50,000-deep body of 100 kB was a server error on every endpoint
that takes JSON. ``MAX_DEPTH`` is 32: the deepest body the API documents is 3 levels (an
object holding a list of objects, e.g. a table's corrected lines; ``tests/tournaments/api/
test_parsers.py`` checks the schema against this), so 32 leaves clients ten times that for
their own habits and stays far below where the decoder, DRF's serializers or a service that
walks the data would recurse into trouble.

``JSONParser`` is DRF's with the depth checked first, by one linear scan (a regular
expression drops strings and everything that is not a bracket; the running sum of the rest
is the depth). It is the API's default (``REST_FRAMEWORK["DEFAULT_PARSER_CLASSES"]``) and is
named by every view that lists its own parsers. ``json_depth_check`` is for any other code
that decodes a request body itself.
"""

from __future__ import annotations

import codecs
import re
from itertools import accumulate

from rest_framework import parsers
from rest_framework.exceptions import ParseError
from rest_framework.utils import json

MAX_DEPTH = 32

# A string (escapes respected; an unterminated one runs to the end, so nothing backtracks) or a
# run of anything that is neither a quote nor a bracket: what is left is the brackets.
_NOT_BRACKETS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[^"\[\]{}]+', re.DOTALL)
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def json_depth(text: str) -> int:
    """The deepest nesting of arrays and objects in ``text`` (0 for a bare value)."""
    brackets = _NOT_BRACKETS.sub("", text)
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0)


def json_depth_check(text: str) -> None:
    """Raise DRF's ParseError (a 400, code ``too_deep``) for a body nested past MAX_DEPTH."""
    depth = json_depth(text)
    if depth > MAX_DEPTH:
        raise ParseError(
            f"The JSON body is nested {depth} levels deep; at most {MAX_DEPTH} are accepted. "
            "Send the fields the endpoint documents (see /api/schema/).",
            code="too_deep",
        )


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, refusing a body nested deeper than ``MAX_DEPTH`` before decoding."""

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = parsers.get_encoding(parser_context or {})
        try:
            text = codecs.getreader(encoding)(stream).read()
        except ValueError as exc:  # not text in its charset
            raise ParseError(f"JSON parse error - {exc}") from None
        json_depth_check(text)
        try:
            return json.loads(text, parse_constant=json.strict_constant if self.strict else None)
        except ValueError as exc:
            raise ParseError(f"JSON parse error - {exc}") from None
