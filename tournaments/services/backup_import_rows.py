"""Restoring an event's rows of play from its backup: games, tables, seats and card lines, the
playoff, rulings, judge calls, tie playoffs, notices and the history. ``backup_import``
restores the people, the event and its entries first, and works out afterwards what follows
from the results. Every value is read through ``backup_checks`` (its terms: where, row, plain
value, reference, model rule).

- build: an unsaved row of a model from a document row: its plain values checked, each
  reference turned into the row it names here, the model's rules checked.
- place: a table is named by [game number, table number], a match game by [round, slot,
  game number]; a ruling names one or the other, a judge call a table.
- the two players of a place: the entries seated at a table, or a match's ``entry_a`` and
  ``entry_b``. A card line's, a ruling's and a match game's players are among them.
"""

from __future__ import annotations

from typing import Any

from django.db import models

from scoring.rulings import CATALOGUE, Position, RulingError
from scoring.rulings import Ruling as EngineRuling
from tournaments.models import (
    AuditEntry,
    CardLine,
    Entry,
    Game,
    JudgeCall,
    Match,
    MatchGame,
    MatchLine,
    Notice,
    Playoff,
    PlayoffSeed,
    Ruling,
    Seat,
    Table,
    TiePlayoff,
)
from tournaments.selectors.final import band_of_key
from tournaments.services import backup as fmt
from tournaments.services import backup_checks as checks
from tournaments.services.backup_checks import BackupRefusal
from tournaments.services.rulings import FIGURES

BATCH = 500
# The most numerous rows: their rules are checked by hand (numbers from 1, one spread column,
# a seat's position), so that no row costs a query (see ``backup_checks``: model rule).
_CHECKED_BY_HAND = (Entry, Game, Table, CardLine, MatchLine)


def rows_create(model: type[models.Model], objs: list) -> list:
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


class PlayRows:
    """The rows made so far, by the keys the document names them with, and the play's rows."""

    def __init__(self, data: dict[str, Any]):
        self.data = data
        self.users: dict[str, Any] = {}
        self.clubs: dict[str, Any] = {}
        self.players: dict[str, Any] = {}
        self.entries: dict[str, Entry] = {}
        self.tables: dict[tuple[int, int], Table] = {}
        self.seated: dict[tuple[int, int], set[Entry]] = {}
        self.match_games: dict[tuple[int, int, int], MatchGame] = {}
        self.event: Any = None
        self.settings: Any = None  # the event's scoring settings, once it is checked

    def build(self, model, data: Any, section: fmt.Section, where: str, *, extra=(), **fixed):
        """An unsaved ``model`` row from the document row ``data`` of ``section``."""
        checks.row(data, where, (*section.names, *extra))
        refs = {}
        for names, made, what in (
            (section.entries, self.entries, "entry"),
            (section.players, self.players, "player"),
            (section.users, self.users, "user"),
            (section.clubs, self.clubs, "club"),
        ):
            for name in names:
                required = not model._meta.get_field(name).null
                refs[name] = checks.ref(
                    made, data[name], f"{where}.{name}", what, required=required
                )
        obj = model(**fixed, **checks.values(model, data, section.fields, where), **refs)
        if not isinstance(obj, _CHECKED_BY_HAND):
            checks.model_rules(obj, where)
        return obj

    def entry_in_history(self, ref: Any) -> Any:
        """An entry key in a history row back to this database's id (see ``backup``)."""
        return self.entries[ref].pk if isinstance(ref, str) and ref in self.entries else ref

    @staticmethod
    def _place(made: dict, value: Any, where: str, what: str, size: int) -> Any:
        if (
            not isinstance(value, list)
            or len(value) != size
            or any(type(n) is not int for n in value)
            or tuple(value) not in made
        ):
            raise BackupRefusal(
                where, f"{checks.shown(value)} names no {what} of the backup.", "unknown_ref"
            )
        return made[tuple(value)]

    def table_at(self, value: Any, where: str) -> Table:
        return self._place(self.tables, value, where, "table [game, table number]", 2)

    def match_game_at(self, value: Any, where: str) -> MatchGame:
        return self._place(self.match_games, value, where, "match game [round, slot, game]", 3)

    @staticmethod
    def among(who: Entry | None, players: set[Entry], where: str) -> None:
        if who is not None and who not in players:
            raise BackupRefusal(where, "is not one of the two players there.", "not_a_player")

    # Games, tables, seats and card lines.

    def games(self) -> None:
        games, q = [], self.event.qualifying_games
        for i, data in enumerate(checks.rows(self.data["games"], "games")):
            where = f"games[{i}]"
            game = self.build(Game, data, fmt.GAME, where, extra=("tables", "seats"),
                              event=self.event)  # fmt: skip
            checks.number_in(game.number, 1, q, f"{where}.number", "a game of the qualifying round")
            games.append((game, data, where))
        checks.unique(((g.number, f"{w}.number") for g, _, w in games), "This game number")
        rows_create(Game, [game for game, _, _ in games])
        for game, data, where in games:
            for j, row in enumerate(checks.rows(data["tables"], f"{where}.tables")):
                here = f"{where}.tables[{j}]"
                table = self.build(Table, row, fmt.TABLE, here, game=game)
                checks.number_in(table.number, 1, 32767, f"{here}.number", "a table number")
                if (game.number, table.number) in self.tables:
                    raise BackupRefusal(f"{here}.number", "is already in this game.", "duplicate")
                self.tables[(game.number, table.number)] = table
        rows_create(Table, list(self.tables.values()))
        seats = [seat for game, data, where in games for seat in self._seats(game, data, where)]
        rows_create(Seat, [seat for seat, _, _ in seats])
        lines = [
            line
            for seat, data, where in seats
            for line, _ in self._lines(fmt.CARD_LINE, data["lines"], f"{where}.lines", seat=seat)
        ]
        rows_create(CardLine, lines)

    def _seats(self, game: Game, data: dict, where: str) -> list[tuple[Seat, dict, str]]:
        seats = []
        for k, row in enumerate(checks.rows(data["seats"], f"{where}.seats")):
            here = f"{where}.seats[{k}]"
            checks.row(row, here, ("entry", "table", "position", "lines"))
            entry = checks.ref(self.entries, row["entry"], f"{here}.entry", "entry", required=True)
            table, position = None, row["position"]
            # A doubles table seats four, partners opposite; a sitting-out team sits at 1 and 3.
            teams = self.event.in_teams
            if row["table"] is not None:
                table = self.table_at([game.number, row["table"]], f"{here}.table")
                if type(position) is not int or position not in ((1, 2, 3, 4) if teams else (1, 2)):
                    said = "1 to 4" if teams else "1 or 2"
                    raise BackupRefusal(
                        f"{here}.position", f"A seat at a table is {said}.", "position"
                    )
                self.seated.setdefault((game.number, table.number), set()).add(entry)
            elif position not in ((None, 1, 3) if teams else (None,)):
                raise BackupRefusal(
                    f"{here}.position",
                    "The sit-out has no position (null)"
                    + (", or 1 and 3 for a team." if teams else "."),
                    "position",
                )
            seats.append((Seat(game=game, entry=entry, table=table, position=position), row, here))
        checks.unique(((s.entry.pk, w) for s, _, w in seats), "This player's seat in this game")
        checks.unique(
            (((s.table_id, s.position), w) for s, _, w in seats),
            "This seat at this table (or the game's one sit-out)",
        )
        return seats

    def _lines(self, section, rows: Any, where: str, **fixed) -> list[tuple[Any, str]]:
        model = CardLine if section is fmt.CARD_LINE else MatchLine
        lines = []
        for k, row in enumerate(checks.rows(rows, where)):
            here = f"{where}[{k}]"
            line = self.build(model, row, section, here, **fixed)
            checks.card_line(line, self.settings, here)
            lines.append((line, here))
        current = [
            ((line.kind, getattr(line, "entry_id", None)), f"{here}.current")
            for line, here in lines
            if line.current
        ]
        checks.unique(current, "A current line of this kind for this player")
        return lines

    # The playoff.

    def playoff(self) -> None:
        data = self.data["playoff"]
        if data is None:
            return
        playoff = self.build(Playoff, data, fmt.PLAYOFF, "playoff", extra=("seeds", "matches"),
                             event=self.event)  # fmt: skip
        self._adjustments(playoff.payout_adjustments, "playoff.payout_adjustments")
        rows_create(Playoff, [playoff])
        seeds = []
        for i, row in enumerate(checks.rows(data["seeds"], "playoff.seeds")):
            here = f"playoff.seeds[{i}]"
            seed = self.build(PlayoffSeed, row, fmt.SEED, here, playoff=playoff)
            checks.number_in(seed.seed, 1, 32767, f"{here}.seed", "a seed")
            checks.number_in(seed.qualifying_rank, 1, 32767, f"{here}.qualifying_rank", "a rank")
            seeds.append((seed, here))
        checks.unique(((s.seed, f"{w}.seed") for s, w in seeds), "This seed")
        checks.unique(((s.entry.pk, f"{w}.entry") for s, w in seeds), "This player's seed")
        rows_create(PlayoffSeed, [seed for seed, _ in seeds])
        rows = checks.rows(data["matches"], "playoff.matches")
        matches = [self._match(row, f"playoff.matches[{i}]", playoff) for i, row in enumerate(rows)]
        checks.unique((((m.round, m.slot), w) for m, _, w in matches), "This round and slot")
        rows_create(Match, [match for match, _, _ in matches])
        games = [
            game for match, row, where in matches for game in self._match_games(match, row, where)
        ]
        rows_create(MatchGame, [game for game, _, _ in games])
        lines = []
        for game, row, where in games:
            for line, here in self._lines(fmt.MATCH_LINE, row["lines"], f"{where}.lines",
                                          match_game=game):  # fmt: skip
                self.among(line.entry, _players(game.match), f"{here}.entry")
                lines.append(line)
        rows_create(MatchLine, lines)

    @staticmethod
    def _adjustments(adjustments: Any, where: str) -> None:
        """The director's payouts by hand: a finish band's key and a difference in cents."""
        if not isinstance(adjustments, dict):
            raise BackupRefusal(where, "expected an object of payout lines.", "not_an_object")
        for key, cents in adjustments.items():
            try:
                band_of_key(key)
            except ValueError as exc:
                raise BackupRefusal(f"{where}.{key}", str(exc), "not_a_band") from None
            checks.number_in(cents, -(2**31), 2**31 - 1, f"{where}.{key}", "an amount in cents")

    def _match(self, row: Any, where: str, playoff: Playoff) -> tuple[Match, dict, str]:
        match = self.build(Match, row, fmt.MATCH, where, extra=("games",), playoff=playoff)
        checks.number_in(match.round, 1, 32767, f"{where}.round", "a round")
        if match.best_of % 2 == 0:
            raise BackupRefusal(
                f"{where}.best_of", "A match is best of an odd number of games.", "odd_best_of"
            )
        for name in ("winner", "absent"):
            self.among(getattr(match, name), _players(match), f"{where}.{name}")
        return match, row, where

    def _match_games(self, match: Match, data: dict, where: str) -> list:
        games = []
        for j, row in enumerate(checks.rows(data["games"], f"{where}.games")):
            here = f"{where}.games[{j}]"
            game = self.build(MatchGame, row, fmt.MATCH_GAME, here, extra=("lines",), match=match)
            checks.number_in(game.number, 1, 32767, f"{here}.number", "a game of the match")
            for name in ("first_dealer", "winner"):
                self.among(getattr(game, name), _players(match), f"{here}.{name}")
            place = (match.round, match.slot, game.number)
            if place in self.match_games:
                raise BackupRefusal(f"{here}.number", "is already in this match.", "duplicate")
            self.match_games[place] = game
            games.append((game, row, here))
        return games

    # Rulings and what else happened at the tables.

    def rulings(self) -> None:
        rulings = []
        for i, row in enumerate(checks.rows(self.data["rulings"], "rulings")):
            where = f"rulings[{i}]"
            checks.row(row, where, (*fmt.RULING.names, "table", "match_game", "judges"))
            if (row["table"] is None) == (row["match_game"] is None):
                raise BackupRefusal(
                    f"{where}.table", "A ruling is at a table or in a match game: name one.",
                    "place",
                )  # fmt: skip
            place, players = {}, set()
            if row["table"] is not None:
                place["table"] = self.table_at(row["table"], f"{where}.table")
                players = self.seated.get(tuple(row["table"]), set())
            else:
                place["match_game"] = self.match_game_at(row["match_game"], f"{where}.match_game")
                players = _players(place["match_game"].match)
            ruling = self.build(Ruling, row, fmt.RULING, where, extra=("table", "match_game",
                                "judges"), event=self.event, **place)  # fmt: skip
            self._ruling_rules(ruling, players, where)
            rulings.append((ruling, self._judges(row["judges"], ruling, f"{where}.judges")))
        rows_create(Ruling, [ruling for ruling, _ in rulings])
        judged = Ruling.judges.through
        judged.objects.bulk_create(
            judged(ruling_id=ruling.pk, user_id=user.pk)
            for ruling, users in rulings
            for user in users
        )

    def _ruling_rules(self, ruling: Ruling, players: set[Entry], where: str) -> None:
        """What the rulings service checks with the engine: the two players, the catalogue's
        direction, the boards before and after, the figures the code takes."""
        for name in ("offender", "beneficiary", "winner"):
            self.among(getattr(ruling, name), players, f"{where}.{name}")
        direction = CATALOGUE[ruling.code].direction
        if ruling.direction != direction:
            raise BackupRefusal(
                f"{where}.direction", f"The catalogue's direction for {ruling.code} is "
                f"{direction!r}.", "direction",
            )  # fmt: skip
        for when in ("before", "after"):
            try:
                Position(
                    getattr(ruling, f"score_{when}_offender"),
                    getattr(ruling, f"score_{when}_opponent"),
                    target=self.event.target_score,
                )
            except ValueError as exc:
                raise BackupRefusal(
                    f"{where}.score_{when}_offender", f"The board {when} the ruling: {exc}", "board"
                ) from None
        figures = {name: getattr(ruling, name) for name in FIGURES}
        try:
            EngineRuling(ruling.code, "a", **{k: v for k, v in figures.items() if v is not None},
                         muggins_in_effect=self.event.muggins)  # fmt: skip
        except RulingError as exc:
            named = next((name for name in FIGURES if name in str(exc)), "code")
            raise BackupRefusal(f"{where}.{named}", str(exc), "ruling") from None

    def _judges(self, names: Any, ruling: Ruling, where: str) -> list:
        judges = [
            checks.ref(self.users, name, f"{where}[{k}]", "user", required=True)
            for k, name in enumerate(checks.rows(names, where))
        ]
        checks.unique(((j.username, f"{where}[{k}]") for k, j in enumerate(judges)), "This judge")
        if len(judges) != (3 if ruling.third_judge else 2):
            raise BackupRefusal(
                where, "A ruling is made by two judges, or three when it went to a third judge.",
                "judge_count",
            )  # fmt: skip
        return judges

    def calls_and_notices(self) -> None:
        """Judge calls, tie playoffs and notices: rows that name a table or entries only."""
        calls = []
        for i, row in enumerate(checks.rows(self.data["judge_calls"], "judge_calls")):
            where = f"judge_calls[{i}]"
            checks.row(row, where, (*fmt.JUDGE_CALL.names, "table"))
            table = self.table_at(row["table"], f"{where}.table")
            call = self.build(JudgeCall, row, fmt.JUDGE_CALL, where, extra=("table",), table=table)
            self.among(call.called_by_entry, self.seated.get(tuple(row["table"]), set()),
                       f"{where}.called_by_entry")  # fmt: skip
            calls.append((call, where))
        checks.unique(
            ((c.table.pk, f"{w}.answered_at") for c, w in calls if c.answered_at is None),
            "An open call to this table",
        )
        rows_create(JudgeCall, [call for call, _ in calls])
        rows_create(
            TiePlayoff, self._each("tie_playoffs", TiePlayoff, fmt.TIE_PLAYOFF, event=self.event)
        )
        rows_create(Notice, self._each("notices", Notice, fmt.NOTICE))

    def _each(self, section: str, model, fields: fmt.Section, **fixed) -> list:
        return [
            self.build(model, row, fields, f"{section}[{i}]", **fixed)
            for i, row in enumerate(checks.rows(self.data[section], section))
        ]

    def audit(self) -> None:
        """The history as it was: its rows, their entry references given this database's ids."""
        rows, q = (
            self._each("audit", AuditEntry, fmt.AUDIT, event=self.event),
            self.event.qualifying_games,
        )
        for i, row in enumerate(rows):
            if row.game_number is not None:
                where = f"audit[{i}].game_number"
                checks.number_in(row.game_number, 1, q, where, "a game of the qualifying round")
            for side in ("before", "after"):
                payload = getattr(row, side)
                if not isinstance(payload, dict):
                    raise BackupRefusal(
                        f"audit[{i}].{side}", "expected an object.", "not_an_object"
                    )
                setattr(row, side, fmt.audit_translate(row.action, payload, self.entry_in_history))
        rows_create(AuditEntry, rows)


def _players(match: Match) -> set[Entry]:
    return {entry for entry in (match.entry_a, match.entry_b) if entry is not None}
