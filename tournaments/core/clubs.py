"""Clubs by name: one club however a list spells it.

- club key: a club's name with case, accents, punctuation and spacing put aside, so
  "Québec", "QUEBEC" and " quebec. " are one club. Every place that matches a club by its name
  (an entry, an import, a new club's name) compares keys, and nowhere else is a name folded.
"""

from __future__ import annotations

import unicodedata


def club_key(name: str) -> str:
    """``name`` folded for matching: "Pine  Club" and "pine-club" are both "pine club"."""
    plain = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in plain if not unicodedata.combining(c)).casefold()
    words = "".join(c if c.isalnum() else " " for c in plain)
    return " ".join(words.split())
