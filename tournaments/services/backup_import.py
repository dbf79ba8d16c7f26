"""Restoring an event from its backup (the document and its keys are described in ``backup``).

A backup is a file anyone can write. Every value is checked as a director's input is through
the API or the pages before it is kept (``backup_checks``); what follows from the results is
worked out here by the code that works it out after play, never copied from the file.

- found or made: users are found by user name, or made without a usable password (they can
  sign in only after a password reset); clubs are found by name, or made with the document's
  settings; players are found by ACC number when they have one, or made. A record that is
  found is used as it is: this database's record of a person or a club wins over the copy
  (a found player keeps their name and home club, whatever the file calls them).
- accounts: a file never links an account to a player (only the player, with a code, or an
  administrator does: ``account_links``); a player row naming one is refused.
- roles: the users the file names hold its roles, accounts already here too. That is what a
  director may do through the API (grant any account a role in their event), and a role
  gives power over this event only, so an attacker naming someone as judge of their own
  event gains nothing. The history row of the import lists the accounts already here that
  the file names.
- links to what is here: the event's club, when the club is here already, only if the
  person restoring directs it (as only its directors make its club nights; refused
  otherwise); its parent (a Consolation's Main), when exactly one event of that name and date
  is here and the person restoring directs it (else left empty: the Main's director would
  otherwise find someone else's event as their Consolation).
- private links (only in a document exported with them): each must be a link as Pegboard
  makes them, else the import is refused naming the row. Refused, not replaced: a file whose
  links are not Pegboard's was not written by an export, and saying so beats restoring it
  quietly; exporting the event again without its links gives every player a new one. Links
  already in use here (current or previous) are refused too.
- worked out here: the standings (from the card lines and tie playoffs), a club night's
  cards (Grass Roots points, by ``night_cards``), its club awards (checked by the engine and
  the night's cards as a club director's are; refused otherwise), and the MRP ledger. A
  restored event is not sanctioned (only the ACC office sanctions, ``sanctioning``), so a
  finalised one is finalised again here by the ledger's own code: final here, with no award
  in the national ledger until the office sanctions it. The file's standings, ledger rows
  and night cards are not restored (the history row counts the awards left behind).
- refused (``ServiceError``, nothing saved): a document of another format or version, a
  value ``backup_checks`` refuses, an event whose name and date are already here, a club
  here the person restoring does not direct, private links already in use here, results
  said to be final that the ledger cannot finalise, a document contradicting itself.
- times: restored as exported, those the database sets on creation (``created_at``) too,
  except ``rated_at``: ratings are not in the backup, so an event that was rated is rated
  again here by the ratings job, which sets it.
- history: the import adds one row of its own (``event_import``) after the restored ones.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.db import DataError, IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from tournaments.core.clubs import club_key
from tournaments.core.playoff_lengths import lengths_from_rounds
from tournaments.errors import Conflict, ServiceError
from tournaments.models import Club, ClubAward, Entry, Event, EventRole, Player
from tournaments.presets import PRESETS
from tournaments.selectors.access import DIRECTOR, club_directs, event_roles
from tournaments.selectors.clubs import clubs_by_key
from tournaments.selectors.events import event_scoring_settings
from tournaments.services import backup as fmt
from tournaments.services import backup_checks as checks
from tournaments.services.audit import Kind, audit_record
from tournaments.services.backup_checks import BackupRefusal
from tournaments.services.backup_import_field import FieldRows
from tournaments.services.backup_import_rows import rows_create
from tournaments.services.clubs import club_award_build
from tournaments.services.events import event_settings_check
from tournaments.services.ledger import event_finalise, finalise_refusal
from tournaments.services.night_cards import night_cards_write
from tournaments.services.prizes import money_settings_clean
from tournaments.services.ratings import ratings_request
from tournaments.services.standings import standings_snapshot_now

RESTORED = "restored from a backup: not sanctioned here"


def event_import(*, data: dict[str, Any], user, sender_directs: bool = False) -> Event:
    """Recreate the event of backup ``data`` here, in one transaction (see the module).
    ``sender_directs``: ``user`` (who sends it: a venue laptop's push) directs it here too,
    whatever the file's roles say."""
    _check_format(data)
    try:
        with transaction.atomic():
            return _Restore(data, user, sender_directs=sender_directs).run()
    except (IntegrityError, DataError) as exc:
        message = f"The backup contradicts itself or this database: {exc}"
    raise ServiceError(message, field="data", code="damaged")


def _check_format(data: Any) -> None:
    found = data.get("format") if isinstance(data, dict) else None
    if found != fmt.FORMAT:
        raise ServiceError(
            f"Not a Pegboard event backup: the format is {checks.shown(found)}, not "
            f"{fmt.FORMAT!r}.",
            field="format",
            code="wrong_format",
        )
    if data.get("version") != fmt.VERSION or type(data.get("version")) is not int:
        raise ServiceError(
            f"This backup is version {checks.shown(data.get('version'))}; this Pegboard reads "
            f"version {fmt.VERSION} only.",
            field="version",
            code="wrong_version",
        )
    for name, empty in fmt.SECTIONS_ADDED.items():  # a backup made before this section
        data.setdefault(name, empty)
    checks.row(data, "", fmt.SECTIONS)  # a dict: see the format's check above
    if not isinstance(data["include_tokens"], bool):
        raise BackupRefusal("include_tokens", "expected true or false.", "not_bool")
    checks.when(data["exported_at"], "exported_at")


class _Restore(FieldRows):
    """One import (see the module)."""

    def __init__(self, data: dict[str, Any], user, *, sender_directs: bool = False):
        super().__init__(data)
        self.actor = user
        self.sender_directs = sender_directs
        self.person = user if user is not None else AnonymousUser()
        self.with_links: bool = data["include_tokens"]
        self.accounts_here: list[str] = []
        self.clubs_here: set[str] = set()
        self.finalised_at = None
        self.rated = False
        self.awards_left = 0

    def run(self) -> Event:
        self._users()
        self._clubs()
        self._players()
        self._event()
        self._roles()
        self._entries()
        self.teams()
        self.keep_apart()
        self.games()
        self.playoff()
        self.rulings()  # after the playoff: a ruling may be in a match game
        self.calls_and_notices()
        self.audit()
        self._worked_out()
        self._club_awards()  # after the night's cards: a 9-0 night is read from them
        self._finalised()
        self._record_and_rate()
        return self.event

    # The people and clubs (see the module for what is found and what is made).

    def _users(self) -> None:
        model, rows = get_user_model(), []
        for i, data in enumerate(checks.rows(self.data["users"], "users")):
            names = (
                fmt.USER_FIELDS_BEFORE
                if isinstance(data, dict) and "email" in data
                else fmt.USER_FIELDS
            )
            checks.row(data, f"users[{i}]", names)
            rows.append((checks.values(model, data, names, f"users[{i}]"), i))
        checks.unique(((r["username"], f"users[{i}].username") for r, i in rows), "This user")
        names = [row["username"] for row, _ in rows]
        self.users = {user.username: user for user in model.objects.filter(username__in=names)}
        self.accounts_here = sorted(self.users)
        for row, _ in rows:
            if row["username"] not in self.users:
                user = model(**row)
                user.set_unusable_password()
                user.save()
                self.users[user.username] = user

    def _clubs(self) -> None:
        clubs = self._each("clubs", Club, fmt.CLUB)
        checks.unique(((c.name, f"clubs[{i}].name") for i, c in enumerate(clubs)), "This club")
        known = clubs_by_key()  # a club here by any spelling (case and accents aside)
        self.clubs = {c.name: known[club_key(c.name)] for c in clubs if club_key(c.name) in known}
        self.clubs_here = set(self.clubs)
        made = rows_create(Club, [club for club in clubs if club.name not in self.clubs_here])
        self.clubs.update((club.name, club) for club in made)

    def _keyed(self, data: Any, section: str, index: int, prefix: str, names) -> str:
        """Where a keyed row is (``entries[E3]``), once its key is checked."""
        by_index = f"{section}[{index}]"
        if not isinstance(data, dict) or "key" not in data:
            checks.row(data, by_index, ("key", *names))  # refused: says why
        where = f"{section}[{checks.key(data, by_index, prefix)}]"
        checks.row(data, where, ("key", *names))
        return where

    def _players(self) -> None:
        rows = []
        for i, data in enumerate(checks.rows(self.data["players"], "players")):
            where = self._keyed(data, "players", i, "P", fmt.PLAYER.names)
            player = self.build(Player, data, fmt.PLAYER, where, extra=("key",))
            rows.append((data["key"], player, where))
        checks.unique(((key, f"{w}.key") for key, _, w in rows), "This key")
        numbers = [(p.acc_number, f"{w}.acc_number") for _, p, w in rows if p.acc_number]
        checks.unique(numbers, "This ACC number")
        found = Player.objects.filter(acc_number__in=[number for number, _ in numbers])
        here = {player.acc_number: player for player in found}
        for key, player, _ in rows:
            self.players[key] = here.get(player.acc_number, player) if player.acc_number else player
        rows_create(Player, [player for key, player, _ in rows if self.players[key] is player])

    # The event, its roles and its field.

    def _event(self) -> None:
        data = self.data["event"]
        event = self.build(Event, data, fmt.EVENT, "event", extra=("settings", "money", "parent"))
        if isinstance(data["settings"], dict):
            data["settings"] = {**fmt.SETTINGS_ADDED, **data["settings"]}
        for part, names in (("settings", fmt.SETTINGS_FIELDS), ("money", fmt.MONEY)):
            row = checks.row(data[part], f"event.{part}", names)
            for name, value in checks.values(Event, row, names, f"event.{part}").items():
                setattr(event, name, value)
        if isinstance(event.playoff_best_of, list):  # a backup from before lengths had names
            event.playoff_best_of = lengths_from_rounds(event.playoff_best_of, None)
        with checks.at("event.settings"):
            event_settings_check({name: getattr(event, name) for name in Event.SETTINGS})
        with checks.at("event.money"):
            event.payout_percents, event.qualifier_pool = money_settings_clean(
                payout_percents=event.payout_percents, qualifier_pool=event.qualifier_pool
            )
        if event.preset and event.preset not in PRESETS:
            raise BackupRefusal(
                "event.preset", f"{event.preset!r} is not a preset here ({', '.join(PRESETS)})."
            )
        self._refuse_a_second_copy(event)
        self._refuse_a_club_not_theirs(event.club)
        event.parent = self._parent(data["parent"])
        self.finalised_at, event.finalised_at = event.finalised_at, None
        self.rated, event.rated_at = event.rated_at is not None, None  # see the module
        self.event = rows_create(Event, [event])[0]
        self.settings = event_scoring_settings(event=event)

    def _refuse_a_second_copy(self, event: Event) -> None:
        if Event.objects.filter(name=event.name, starts_on=event.starts_on).exists():
            raise Conflict(
                f"An event named {event.name!r} on {event.starts_on or 'no date'} is already "
                "here, so nothing was restored. If it is this event, sent before, there is "
                "nothing more to do: it is here. To replace it, delete the one here and send "
                "again; to keep both, rename the event in the backup's own site and send again.",
                field="event",
                code="duplicate",
            )

    def _refuse_a_club_not_theirs(self, club: Club | None) -> None:
        here = club is not None and club.name in self.clubs_here
        if here and not club_directs(club=club, user=self.person):
            raise BackupRefusal(
                "event.club",
                f"{club.name!r} is a club here, and only its directors restore its events: "
                "run the import as one of them (--user).",
                "not_club_director",
            )

    def _parent(self, ref: Any) -> Event | None:
        if ref is None:
            return None
        row = checks.row(ref, "event.parent", ("name", "starts_on"))
        named = checks.values(Event, row, ("name", "starts_on"), "event.parent")
        found = list(Event.objects.filter(**named)[:2])
        if len(found) == 1 and DIRECTOR in event_roles(event=found[0], user=self.person):
            return found[0]
        return None

    def _roles(self) -> None:
        roles = self._each("roles", EventRole, fmt.ROLE, event=self.event)
        checks.unique(
            (((r.user.pk, r.role), f"roles[{i}]") for i, r in enumerate(roles)), "This role"
        )
        directors = {r.user.pk for r in roles if r.role == EventRole.Role.DIRECTOR}
        if self.sender_directs and self.actor.pk not in directors:
            roles.append(EventRole(event=self.event, user=self.actor, role=EventRole.Role.DIRECTOR))
        rows_create(EventRole, roles)

    def _entries(self) -> None:
        links = fmt.TOKEN_FIELDS if self.with_links else ()
        rows = []
        for i, data in enumerate(checks.rows(self.data["entries"], "entries")):
            where = self._keyed(data, "entries", i, "E", (*fmt.ENTRY.names, *links))
            entry = self.build(Entry, data, fmt.ENTRY, where, extra=("key", *links),
                               event=self.event)  # fmt: skip
            self._games_of(entry, where)
            if links:
                self._links(entry, data, where)
            rows.append((data["key"], entry, where))
        checks.unique(((key, f"{w}.key") for key, _, w in rows), "This key")
        checks.unique(((e.player.pk, f"{w}.player") for _, e, w in rows), "This player's entry")
        if links:
            self._refuse_links_in_use([(entry, where) for _, entry, where in rows])
        self.entries = {key: entry for key, entry, _ in rows}
        rows_create(Entry, list(self.entries.values()))

    def _games_of(self, entry: Entry, where: str) -> None:
        """The games an entry's fields name are games of this event."""
        q = self.event.qualifying_games
        checks.number_in(entry.joined_from_game, 1, q + 1, f"{where}.joined_from_game",
                         "the next game to pair at most")  # fmt: skip
        if entry.withdrawn_after_game is not None:
            checks.number_in(entry.withdrawn_after_game, 0, q, f"{where}.withdrawn_after_game",
                             "a game of the qualifying round, or 0")  # fmt: skip
        missed = checks.rows(entry.missed_games, f"{where}.missed_games")
        for k, number in enumerate(missed):
            checks.number_in(number, 1, q, f"{where}.missed_games[{k}]", "a game of this event")
        checks.unique(((n, f"{where}.missed_games[{k}]") for k, n in enumerate(missed)), "This")

    def _links(self, entry: Entry, data: dict, where: str) -> None:
        entry.report_token = checks.link(data["report_token"], f"{where}.report_token")
        entry.previous_report_token = checks.link(
            data["previous_report_token"], f"{where}.previous_report_token", blank=True
        )
        now = timezone.now()
        for name, moment in checks.values(Entry, data, fmt.TOKEN_FIELDS[2:], where).items():
            checks.not_after(moment, now, f"{where}.{name}")  # an undo window kept open
            setattr(entry, name, moment)

    def _refuse_links_in_use(self, entries: list[tuple[Entry, str]]) -> None:
        links = [(e.report_token, f"{w}.report_token") for e, w in entries]
        links += [(e.previous_report_token, f"{w}.previous_report_token")
                  for e, w in entries if e.previous_report_token]  # fmt: skip
        checks.unique(links, "This private link")
        tokens = [token for token, _ in links]
        taken = Entry.objects.filter(
            Q(report_token__in=tokens) | Q(previous_report_token__in=tokens)
        ).select_related("player")
        names = [entry.name for entry in taken[:3]]
        if names:
            raise ServiceError(
                f"The private links of {', '.join(names)} are already in use here (is this event "
                "here under another name?). Export it without its private links to get new ones.",
                field="include_tokens",
                code="links_in_use",
            )

    # What follows from the results (see the module).

    def _worked_out(self) -> None:
        ledger = checks.row(self.data["ledger"], "ledger", ("finalisations", "awards"))
        checks.rows(ledger["finalisations"], "ledger.finalisations")
        self.awards_left = len(checks.rows(ledger["awards"], "ledger.awards"))
        checks.rows(self.data["night_cards"], "night_cards")
        if self.data["standings"] is not None:
            checks.row(self.data["standings"], "standings", (*fmt.SNAPSHOT.names, "rows",
                       "cut_tie"))  # fmt: skip
            standings_snapshot_now(event=self.event)
        night_cards_write(event=self.event)

    def _club_awards(self) -> None:
        entries = {entry.player.pk: entry for entry in self.entries.values()}
        awards = []
        for i, data in enumerate(checks.rows(self.data["club_awards"], "club_awards")):
            where = f"club_awards[{i}]"
            checks.row(data, where, fmt.CLUB_AWARD.names)
            club = checks.ref(self.clubs, data["club"], f"{where}.club", "club", required=True)
            player = checks.ref(self.players, data["player"], f"{where}.player", "player",
                                required=True)  # fmt: skip
            if player.pk not in entries:
                raise BackupRefusal(f"{where}.player", "did not play this event.", "not_a_player")
            recorded_by = checks.ref(self.users, data["recorded_by"], f"{where}.recorded_by",
                                     "user", required=False)  # fmt: skip
            given = checks.values(ClubAward, data, ("kind", "hand", "starter", "crib"), where)
            with checks.at(where):
                award = club_award_build(club=club, entry=entries[player.pk],
                                         recorded_by=recorded_by, **given)  # fmt: skip
            award.created_at = checks.value(ClubAward, "created_at", data["created_at"],
                                            f"{where}.created_at")  # fmt: skip
            awards.append(award)
        rows_create(ClubAward, awards)

    def _finalised(self) -> None:
        """A finalised event is finalised again here, by the ledger's code (see the module)."""
        if self.finalised_at is None:
            return
        refusal = finalise_refusal(self.event)
        if refusal:
            raise BackupRefusal(
                "event.finalised_at", f"the results cannot be final here: {refusal}", "not_final"
            )
        event_finalise(event_id=self.event.pk, reason=RESTORED, finalise=True)
        Event.objects.filter(pk=self.event.pk).update(finalised_at=self.finalised_at)
        self.event.finalised_at = self.finalised_at

    def _record_and_rate(self) -> None:
        audit_record(
            event=self.event,
            actor=self.actor,
            kind=Kind.SETTINGS,
            action="event_import",
            summary=f"Restored from a backup exported at {self.data['exported_at']}; standings, "
            "night cards and MRP ledger worked out here from its results (not sanctioned here)"
            + ("" if self.with_links else "; every player has a new private link"),
            after={
                "entries": len(self.entries),
                "games": len(self.data["games"]),
                "accounts_already_here": self.accounts_here,
                "awards_in_the_file_not_restored": self.awards_left,
                "sender_directs": self.sender_directs,
            },
        )
        if self.rated:
            ratings_request(event=self.event)
