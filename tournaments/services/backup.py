"""The backup of one event: a plain JSON document that recreates it in another database.

``backup_export.event_export`` writes it, ``backup_import.event_import`` reads it. This module
holds what both sides must agree on: the format's name and version, the fields each section
copies, and how values and references are written.

- document: ``{"format": "pegboard-event", "version": 2, ...}`` (version 2: contact details
  are the entries', and players name no account); the sections are listed in
  ``SECTIONS`` (see ``backup_export`` for what each holds and what is left out, and why).
- key: how the document names a row of the event instead of its database id, which would mean
  another row (or nothing) in another database. Entries are ``E1``, ``E2``... in the order they
  were made, players ``P1``... in order of first use; users are named by user name, clubs by
  name, games by number, tables by (game, table number), matches by (round, slot), match games
  by (round, slot, game number), finalisations by number.
- private link: an entry's ``report_token`` (and the previous one, with the times of the
  change); only in a document exported with ``include_tokens``. Without them the import makes
  new links, so printed scorecards of the original no longer work there.
- plain value: dates and times are ISO 8601 strings (times with their UTC offset); JSON
  fields are copied as they are stored. ``backup_checks`` reads them back, checked.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from tournaments.models import Event
from tournaments.services.clubs import CLUB_SETTINGS
from tournaments.services.prizes import MONEY_FIELDS

FORMAT = "pegboard-event"
VERSION = 2

SECTIONS = (
    "format", "version", "exported_at", "include_tokens", "users", "clubs", "players", "event",
    "roles", "entries", "teams", "keep_apart", "games", "tie_playoffs", "judge_calls", "rulings",
    "playoff", "standings", "notices", "audit", "ledger", "night_cards", "club_awards",
)  # fmt: skip


@dataclass(frozen=True)
class Section:
    """One kind of row in the document: ``fields`` copied as plain values, and references to
    other rows by their key, under the model's own field names: ``entries`` (entry keys),
    ``players`` (player keys), ``users`` (user names), ``clubs`` (club names)."""

    fields: tuple[str, ...]
    entries: tuple[str, ...] = ()
    players: tuple[str, ...] = ()
    users: tuple[str, ...] = ()
    clubs: tuple[str, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """The names a document row of this section holds (its fields and references)."""
        return (*self.fields, *self.entries, *self.players, *self.users, *self.clubs)

    @property
    def columns(self) -> tuple[str, ...]:
        """What to read with ``.values()`` to write this kind of row."""
        return (
            *self.fields,
            *(f"{name}_id" for name in (*self.entries, *self.players)),
            *(f"{name}__username" for name in self.users),
            *(f"{name}__name" for name in self.clubs),
        )


# A user is named, not reached: the address an account was made with is its holder's, not the
# event's (a role may be given to any account by name, without asking it, so its address in
# the backup would be anyone's for the asking). Files written before carry ``email`` too; the
# import still reads it (``USER_FIELDS_BEFORE``).
USER_FIELDS = ("username", "first_name", "last_name")
USER_FIELDS_BEFORE = (*USER_FIELDS, "email")
CLUB = Section((*CLUB_SETTINGS, "created_at"))
# A player's record is the person's across events: a backup carries what identifies them, not
# their record's contact details nor their account (the entries carry this event's contact).
PLAYER = Section(("name", "acc_number", "created_at"), clubs=("home_club",))
EVENT = Section(
    ("name", "kind", "preset", "starts_on", "stage", "published", "created_at", "finalised_at",
     "rated_at"),
    clubs=("club",), users=("created_by",),
)  # fmt: skip
SETTINGS_FIELDS = Event.SETTINGS
# Settings added after version 2 was first written: a backup made before one lacks it and is
# read with the value that held then (before ``judges_per_ruling``, every ruling took two;
# before ``style``, every event was singles).
SETTINGS_ADDED = {"judges_per_ruling": 2, "style": "singles"}
MONEY = MONEY_FIELDS
ROLE = Section(("role",), users=("user",))
ENTRY = Section(
    ("status", "joined_from_game", "withdrawn_after_game", "missed_games", "checked_in_at",
     "email", "phone", "created_at"),
    players=("player",),
)  # fmt: skip
# A doubles event's teams, each with its two partners' entry keys ("members"); a backup made
# before teams has none (``SECTIONS_ADDED``).
TEAM = Section(("name", "drawn", "created_at"))
# Pairs of entries kept apart in qualifying (``KeepApart``); a backup made before has none.
KEEP_APART = Section(("note", "created_at"), entries=("entry_a", "entry_b"), users=("created_by",))
SECTIONS_ADDED = {"teams": [], "keep_apart": []}
TOKEN_FIELDS = ("report_token", "previous_report_token", "token_replaced_at", "token_used_at")
GAME = Section(("number", "status", "seed", "paired_at", "published_at", "closed_at"))
TABLE = Section(("number", "status", "verified_at"))
_LINE_FIELDS = (
    "kind", "game_points", "plus", "minus", "current", "source", "reason", "created_at",
)  # fmt: skip
CARD_LINE = Section(_LINE_FIELDS, users=("entered_by",))
MATCH_LINE = Section(_LINE_FIELDS, entries=("entry",), users=("entered_by",))
TIE_PLAYOFF = Section(("created_at",), entries=("winner", "loser"), users=("entered_by",))
JUDGE_CALL = Section(("created_at", "answered_at"), entries=("called_by_entry",),
                     users=("called_by_user", "answered_by"))  # fmt: skip
RULING = Section(
    ("hand_number", "code", "direction", "rulebook_edition", "rule", "points", "true_score",
     "reneged_cards", "claimed_missed", "true_missed", "score_before_offender",
     "score_before_opponent", "score_after_offender", "score_after_opponent", "game_over",
     "third_judge", "final", "notes", "created_at"),
    entries=("offender", "beneficiary", "winner"), users=("entered_by",),
)  # fmt: skip
PLAYOFF = Section(("entrants", "qualifiers", "created_at", "rebuilt_at", "payout_adjustments"),
                  entries=("high_non_qualifier",), users=("created_by",))  # fmt: skip
SEED = Section(("seed", "qualifying_rank"), entries=("entry",))
MATCH = Section(
    ("round", "slot", "best_of", "seed_a", "seed_b", "bye", "status", "clock_started_at",
     "decided_at"),
    entries=("entry_a", "entry_b", "winner", "absent"),
)  # fmt: skip
MATCH_GAME = Section(("number", "status", "forfeit", "created_at", "verified_at"),
                     entries=("first_dealer", "winner"))  # fmt: skip
SNAPSHOT = Section(("computed_at", "qualifiers", "verified_games"),
                   entries=("high_non_qualifier",))  # fmt: skip
NOTICE = Section(("message", "created_at", "seen_at"), entries=("entry",))
AUDIT = Section(
    ("actor_name", "kind", "action", "summary", "game_number", "before", "after", "created_at"),
    users=("actor",),
)  # fmt: skip
FINALISATION = Section(("number", "reason", "awards", "points", "created_at"),
                       users=("created_by",))  # fmt: skip
AWARD = Section(
    ("points", "qualifying_points", "playoff_points", "schedule", "kind", "rank", "game_points",
     "qualifiers", "games", "rounds_won", "round_lost", "member", "year", "current",
     "superseded_at", "created_at"),
    entries=("entry",), players=("player",),
)  # fmt: skip
NIGHT_CARD = Section(
    ("season", "played_on", "game_points", "games_won", "games_played", "net_spread",
     "grass_roots_points", "rule"),
    entries=("entry",), players=("player",), clubs=("club",),
)  # fmt: skip
CLUB_AWARD = Section(("season", "kind", "hand", "starter", "crib", "score", "created_at"),
                     players=("player",), clubs=("club",), users=("recorded_by",))  # fmt: skip

# History rows whose before/after hold entry ids (the others hold names and numbers only).
_QUALIFIER_LISTS = {"playoff_build_request"}
_MATCH_GAME_STATES = {"match_game_correct", "match_game_void"}
_ENTRY_PAIRS = {"keep_apart_add", "keep_apart_remove"}


def plain(values: Mapping[str, Any], names: Iterable[str]) -> dict[str, Any]:
    """``names`` of a row (a ``.values()`` dict), as JSON-able values."""
    out = {}
    for name in names:
        value = values[name]
        out[name] = value.isoformat() if isinstance(value, dt.date) else value
    return out


def audit_translate(action: str, payload: dict, entry_of: Callable[[Any], Any]) -> dict:
    """A history row's before/after with its entry references mapped by ``entry_of`` (an id
    to a key on export, a key to an id on import); other rows are returned as they are."""
    if action in _QUALIFIER_LISTS and isinstance(payload.get("qualifiers"), list):
        return {**payload, "qualifiers": [entry_of(e) for e in payload["qualifiers"]]}
    if action in _ENTRY_PAIRS and isinstance(payload.get("entries"), list):
        return {**payload, "entries": [entry_of(e) for e in payload["entries"]]}
    if action in _MATCH_GAME_STATES and payload:
        out = dict(payload)
        if out.get("winner") is not None:
            out["winner"] = entry_of(out["winner"])
        if isinstance(out.get("lines"), dict):
            out["lines"] = {str(entry_of(k)): line for k, line in out["lines"].items()}
        return out
    return payload
