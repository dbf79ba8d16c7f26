"""Restoring an event from its backup (the document and its keys are described in ``backup``).

- found or made: users are found by user name, or made without a usable password (they can
  sign in only after a password reset); clubs are found by name, or made with the document's
  settings; players are found by ACC number when they have one, or made. A record that is
  found is used as it is: this database's record of a person or a club wins over the copy.
- accounts: a file never links an account to a player (only the player, with a code, or an
  administrator does: ``account_links``); users named by the file hold its roles.
- parent: linked when exactly one event of that name and date is here, else left empty.
- refused (``ServiceError``, nothing saved): a document of another format or version, an event
  whose name and date are already here, private links already in use here, a document that
  contradicts itself or this database.
- times: restored as exported, those the database sets on creation (``created_at``) too,
  except ``rated_at``: ratings are not in the backup, so an event that was rated is rated
  again here by the ratings job, which sets it.
- history: the import adds one row of its own (``event_import``) after the restored ones.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, models, transaction

from tournaments.models import (
    AuditEntry,
    CardLine,
    Club,
    ClubAward,
    Entry,
    Event,
    EventRole,
    Finalisation,
    Game,
    JudgeCall,
    Match,
    MatchGame,
    MatchLine,
    MrpAward,
    NightCard,
    Notice,
    Player,
    Playoff,
    PlayoffSeed,
    Ruling,
    Seat,
    StandingsSnapshot,
    Table,
    TiePlayoff,
)
from tournaments.services import backup as fmt
from tournaments.services.audit import Kind, audit_record
from tournaments.services.backup import unplain
from tournaments.services.errors import ServiceError
from tournaments.services.ratings import ratings_request

BATCH = 500


def event_import(*, data: dict[str, Any], user) -> Event:
    """Recreate the event of backup ``data`` here, in one transaction (see the module)."""
    _check_format(data)
    try:
        with transaction.atomic():
            return _Restore(data, user).run()
    except KeyError as exc:
        message = f"The backup is incomplete: {exc.args[0]!r} is missing or unknown."
    except (TypeError, ValueError, AttributeError, IntegrityError) as exc:
        message = f"The backup contradicts itself or this database: {exc}"
    raise ServiceError(message, field="data", code="damaged")


def _check_format(data: Any) -> None:
    found = data.get("format") if isinstance(data, dict) else None
    if found != fmt.FORMAT:
        raise ServiceError(
            f"Not a Pegboard event backup: the format is {found!r}, not {fmt.FORMAT!r}.",
            field="format",
            code="wrong_format",
        )
    if data.get("version") != fmt.VERSION:
        raise ServiceError(
            f"This backup is version {data.get('version')!r}; this Pegboard reads version "
            f"{fmt.VERSION} only.",
            field="version",
            code="wrong_version",
        )


def _create(model: type[models.Model], objs: list) -> list:
    """Save new rows in batches, then put back the times the database set on creation
    (``auto_now_add`` replaces them even when given)."""
    stamps = [f.attname for f in model._meta.concrete_fields if getattr(f, "auto_now_add", False)]
    wanted = [[getattr(obj, name) for name in stamps] for obj in objs]
    model.objects.bulk_create(objs, batch_size=BATCH)
    if stamps and objs:
        for obj, values in zip(objs, wanted, strict=True):
            for name, value in zip(stamps, values, strict=True):
                setattr(obj, name, value)
        model.objects.bulk_update(objs, stamps, batch_size=BATCH)
    return objs


class _Restore:
    """One import: the rows made so far, by the keys the document names them with."""

    def __init__(self, data: dict[str, Any], user):
        self.data, self.actor = data, user
        self.users: dict[str, Any] = {}
        self.clubs: dict[str, Club] = {}
        self.players: dict[str, Player] = {}
        self.entries: dict[str, Entry] = {}
        self.tables: dict[tuple[int, int], Table] = {}
        self.match_games: dict[tuple[int, int, int], MatchGame] = {}
        self.event: Event | None = None

    def run(self) -> Event:
        self._refuse_a_second_copy()
        self._users()
        self._clubs()
        self._players()
        self._event()
        self._entries()
        self._games()
        self._playoff()
        self._rulings()  # after the playoff: a ruling may be in a match game
        self._standings()
        self._audit()
        self._ledger()
        self._simple_sections()
        self._record_and_rate()
        return self.event

    def build(self, model, row: dict, section: fmt.Section, **fixed) -> models.Model:
        """An unsaved ``model`` row from a document row of ``section``."""
        refs = {name: self.entry(row[name]) for name in section.entries}
        refs.update((name, self.ref(self.players, row[name])) for name in section.players)
        refs.update((name, self.ref(self.users, row[name])) for name in section.users)
        refs.update((name, self.ref(self.clubs, row[name])) for name in section.clubs)
        return model(**fixed, **unplain(model, row, section.fields), **refs)

    def create(self, model, rows: list[dict], section: fmt.Section, **fixed) -> list:
        return _create(model, [self.build(model, row, section, **fixed) for row in rows])

    @staticmethod
    def ref(made: dict, key: str | None):
        return None if key is None else made[key]

    def entry(self, key: str | None) -> Entry | None:
        return self.ref(self.entries, key)

    def entry_in_history(self, ref: Any) -> Any:
        """An entry key in a history row back to this database's id (see ``backup``)."""
        return self.entries[ref].pk if isinstance(ref, str) and ref in self.entries else ref

    def _refuse_a_second_copy(self) -> None:
        event = self.data["event"]
        starts_on = unplain(Event, event, ("starts_on",))["starts_on"]
        if Event.objects.filter(name=event["name"], starts_on=starts_on).exists():
            raise ServiceError(
                f"An event named {event['name']!r} on {starts_on or 'no date'} is already here; "
                "rename or delete it first.",
                field="event",
                code="duplicate",
            )

    # The people and clubs (see the module for what is found and what is made).

    def _users(self) -> None:
        rows, model = self.data["users"], get_user_model()
        known = model.objects.filter(username__in=[row["username"] for row in rows])
        self.users = {user.username: user for user in known}
        for row in rows:
            if row["username"] not in self.users:
                user = model(**{name: row[name] for name in fmt.USER_FIELDS})
                user.set_unusable_password()
                user.save()
                self.users[user.username] = user

    def _clubs(self) -> None:
        rows = self.data["clubs"]
        self.clubs = {c.name: c for c in Club.objects.filter(name__in=[r["name"] for r in rows])}
        made = self.create(Club, [r for r in rows if r["name"] not in self.clubs], fmt.CLUB)
        self.clubs.update((club.name, club) for club in made)

    def _players(self) -> None:
        rows = self.data["players"]
        numbers = [row["acc_number"] for row in rows if row["acc_number"]]
        found = {p.acc_number: p for p in Player.objects.filter(acc_number__in=numbers)}
        new = []
        for row in rows:
            player = found.get(row["acc_number"]) if row["acc_number"] else None
            if player is None:
                player = self.build(Player, row, fmt.PLAYER)
                new.append(player)
            self.players[row["key"]] = player
        _create(Player, new)

    # The event and its field.

    def _event(self) -> None:
        row = self.data["event"]
        self.event = self.build(
            Event,
            row,
            fmt.EVENT,
            **unplain(Event, row["settings"], fmt.SETTINGS_FIELDS),
            **unplain(Event, row["money"], fmt.MONEY),
            parent=self._parent(row["parent"]),
        )
        self.event.rated_at = None  # until the ratings job has rated it here (see the module)
        _create(Event, [self.event])
        self.create(EventRole, self.data["roles"], fmt.ROLE, event=self.event)

    def _parent(self, ref: dict | None) -> Event | None:
        if ref is None:
            return None
        starts_on = unplain(Event, ref, ("starts_on",))["starts_on"]
        found = list(Event.objects.filter(name=ref["name"], starts_on=starts_on)[:2])
        return found[0] if len(found) == 1 else None

    def _entries(self) -> None:
        rows = self.data["entries"]
        if self.data["include_tokens"]:
            self._refuse_links_in_use([row["report_token"] for row in rows])
        for row in rows:
            entry = self.build(Entry, row, fmt.ENTRY, event=self.event)
            if self.data["include_tokens"]:
                for name, value in unplain(Entry, row, fmt.TOKEN_FIELDS).items():
                    setattr(entry, name, value)
            self.entries[row["key"]] = entry
        _create(Entry, list(self.entries.values()))

    def _refuse_links_in_use(self, tokens: list[str]) -> None:
        taken = Entry.objects.filter(report_token__in=tokens).values_list("player__name", flat=True)
        names = list(taken[:3])
        if names:
            raise ServiceError(
                f"The private links of {', '.join(names)} are already in use here (is this event "
                "here under another name?). Export it without its private links to get new ones.",
                field="include_tokens",
                code="links_in_use",
            )

    def _games(self) -> None:
        rows = self.data["games"]
        games = self.create(Game, rows, fmt.GAME, event=self.event)
        for game, row in zip(games, rows, strict=True):
            for table in row["tables"]:
                made = self.build(Table, table, fmt.TABLE, game=game)
                self.tables[(game.number, made.number)] = made
        _create(Table, list(self.tables.values()))
        seats = [
            (self._seat(game, seat), seat["lines"])
            for game, row in zip(games, rows, strict=True)
            for seat in row["seats"]
        ]
        _create(Seat, [seat for seat, _ in seats])
        lines = [
            self.build(CardLine, line, fmt.CARD_LINE, seat=seat)
            for seat, rows in seats
            for line in rows
        ]
        _create(CardLine, lines)

    def _seat(self, game: Game, row: dict) -> Seat:
        table = None if row["table"] is None else self.tables[(game.number, row["table"])]
        return Seat(
            game=game, entry=self.entry(row["entry"]), table=table, position=row["position"]
        )

    # The playoffs and the rulings.

    def _playoff(self) -> None:
        row = self.data["playoff"]
        if row is None:
            return
        playoff = self.build(Playoff, row, fmt.PLAYOFF, event=self.event)
        _create(Playoff, [playoff])
        self.create(PlayoffSeed, row["seeds"], fmt.SEED, playoff=playoff)
        matches = self.create(Match, row["matches"], fmt.MATCH, playoff=playoff)
        games = []
        for match, match_row in zip(matches, row["matches"], strict=True):
            for game_row in match_row["games"]:
                game = self.build(MatchGame, game_row, fmt.MATCH_GAME, match=match)
                self.match_games[(match.round, match.slot, game.number)] = game
                games.append((game, game_row["lines"]))
        _create(MatchGame, [game for game, _ in games])
        lines = [
            self.build(MatchLine, line, fmt.MATCH_LINE, match_game=game)
            for game, rows in games
            for line in rows
        ]
        _create(MatchLine, lines)

    def _rulings(self) -> None:
        rows = self.data["rulings"]
        rulings = [
            self.build(
                Ruling,
                row,
                fmt.RULING,
                event=self.event,
                table=self.tables[tuple(row["table"])] if row["table"] else None,
                match_game=self.match_games[tuple(row["match_game"])]
                if row["match_game"]
                else None,
            )
            for row in rows
        ]
        _create(Ruling, rulings)
        judged = Ruling.judges.through
        judged.objects.bulk_create(
            judged(ruling_id=ruling.pk, user_id=self.users[name].pk)
            for ruling, row in zip(rulings, rows, strict=True)
            for name in row["judges"]
        )

    # What the results left behind.

    def _standings(self) -> None:
        row = self.data["standings"]
        if row is None:
            return
        rows = [
            {
                **{k: v for k, v in r.items() if k != "entry"},
                "entry_id": self.entries[r["entry"]].pk,
            }
            for r in row["rows"]
        ]
        cut_tie = [self.entries[key].pk for key in row["cut_tie"]]
        snapshot = self.build(
            StandingsSnapshot, row, fmt.SNAPSHOT, event=self.event, rows=rows, cut_tie=cut_tie
        )
        _create(StandingsSnapshot, [snapshot])

    def _audit(self) -> None:
        rows = []
        for row in self.data["audit"]:
            entry = self.build(AuditEntry, row, fmt.AUDIT, event=self.event)
            entry.before = fmt.audit_translate(row["action"], row["before"], self.entry_in_history)
            entry.after = fmt.audit_translate(row["action"], row["after"], self.entry_in_history)
            rows.append(entry)
        _create(AuditEntry, rows)

    def _ledger(self) -> None:
        ledger = self.data["ledger"]
        made = self.create(
            Finalisation, ledger["finalisations"], fmt.FINALISATION, event=self.event
        )
        numbers = {finalisation.number: finalisation for finalisation in made}
        awards = [
            self.build(
                MrpAward,
                row,
                fmt.AWARD,
                event=self.event,
                finalisation=numbers[row["finalisation"]],
            )
            for row in ledger["awards"]
        ]
        _create(MrpAward, awards)

    def _simple_sections(self) -> None:
        """The sections whose rows name nothing but entries, players, users and clubs."""
        self.create(TiePlayoff, self.data["tie_playoffs"], fmt.TIE_PLAYOFF, event=self.event)
        calls = [
            self.build(JudgeCall, row, fmt.JUDGE_CALL, table=self.tables[tuple(row["table"])])
            for row in self.data["judge_calls"]
        ]
        _create(JudgeCall, calls)
        self.create(Notice, self.data["notices"], fmt.NOTICE)
        self.create(NightCard, self.data["night_cards"], fmt.NIGHT_CARD, event=self.event)
        self.create(ClubAward, self.data["club_awards"], fmt.CLUB_AWARD, event=self.event)

    def _record_and_rate(self) -> None:
        audit_record(
            event=self.event,
            actor=self.actor,
            kind=Kind.SETTINGS,
            action="event_import",
            summary=f"Restored from a backup exported at {self.data['exported_at']}"
            + ("" if self.data["include_tokens"] else "; every player has a new private link"),
            after={"entries": len(self.entries), "games": len(self.data["games"])},
        )
        if self.data["event"]["rated_at"] is not None:
            ratings_request(event=self.event)
