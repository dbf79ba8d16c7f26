"""Writing an event's backup (the document and its keys are described in ``backup``).

In the document: the event with every setting and its money settings; its club (name and
settings); its parent (the Main of a Consolation: name and date only, a reference the import
links when that event exists there); roles; entries (with the contact the player gave for the
event) and their players (name, ACC number, home club); teams; the pairs kept apart in
qualifying (not the registration wishes they came from: those are the weekend's); games,
tables, seats and every card line, replaced ones too; tie playoffs; judge calls; rulings with
their judges; the playoff (seeds, matches with the no-show clock, match games and every match
line, payout adjustments); the latest standings snapshot; notices; the whole history
(``AuditEntry``); the event's MRP ledger rows (finalisations and awards, superseded ones too);
night cards and club awards. The standings, the ledger and the night cards are there for a
reader of the file: the import works them out again from the results (``backup_import``).

Left out, and why:
- passwords, staff rights, logins: a backup must not carry a way in or a privilege into
  another database. A user is named (user name, first and last name) and nothing more: not
  their account's e-mail address, which is theirs, not the event's.
- jobs (``Job``): the record of background work that is over; rows that pointed to one are
  restored without it.
- older standings snapshots: every page reads the latest only.
- ratings (``PlayerRating``, ``RatingPoint``): worked out from every rated event's games in
  date order, not from one event; the import asks for the event to be rated again instead.
- side events (a Main's Consolation): events of their own, each with its own backup.
- club directors (``ClubRole``), the club's history (``ClubAuditEntry``) and player merges:
  records of the club and of the people, not of the event. A merged-away record
  (``merged_into``) is not followed.
- a club's recognition by the ACC office: this database's decision, never a file's (a club
  the import makes starts unrecognised, as every new club does).
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone

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
    KeepApart,
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
    Team,
    TiePlayoff,
)
from tournaments.services import backup as fmt
from tournaments.services.audit import Kind, audit_record
from tournaments.services.backup import plain


class _Refs:
    """The keys the document names rows by, and the users, players and clubs it names, gathered
    while it is written (the users, players and clubs sections list exactly these)."""

    def __init__(self, entry_keys: dict[int, str]):
        self.entries = entry_keys
        self.players: dict[int, str] = {}
        self.usernames: set[str] = set()
        self.clubs: set[str] = set()

    def row(self, values: dict[str, Any], section: fmt.Section) -> dict[str, Any]:
        """One row of ``section`` from its ``.values()`` (read with ``section.columns``)."""
        out = plain(values, section.fields)
        for name in section.entries:
            out[name] = self.entry(values[f"{name}_id"])
        for name in section.players:
            out[name] = self.player(values[f"{name}_id"])
        for name in section.users:
            out[name] = self.user(values[f"{name}__username"])
        for name in section.clubs:
            out[name] = self.club(values[f"{name}__name"])
        return out

    def rows(self, queryset, section: fmt.Section) -> list[dict[str, Any]]:
        return [self.row(values, section) for values in queryset.values(*section.columns)]

    def entry(self, entry_id: int | None) -> str | None:
        return None if entry_id is None else self.entries[entry_id]

    def entry_in_history(self, ref: Any) -> Any:
        """An entry id as the history stores it (a number, or a number as text) to its key;
        anything else is kept as it is."""
        try:
            return self.entries[int(ref)]
        except (KeyError, TypeError, ValueError):
            return ref

    def player(self, player_id: int | None) -> str | None:
        if player_id is None:
            return None
        return self.players.setdefault(player_id, f"P{len(self.players) + 1}")

    def user(self, username: str | None) -> str | None:
        if username:
            self.usernames.add(username)
        return username or None

    def club(self, name: str | None) -> str | None:
        if name:
            self.clubs.add(name)
        return name or None


def event_export(*, event: Event, include_tokens: bool = False) -> dict[str, Any]:
    """The whole of ``event`` as a JSON-able document (private links only if asked)."""
    entry_ids = Entry.objects.filter(event=event).order_by("pk").values_list("pk", flat=True)
    refs = _Refs({pk: f"E{n}" for n, pk in enumerate(entry_ids, 1)})
    doc: dict[str, Any] = {
        "format": fmt.FORMAT,
        "version": fmt.VERSION,
        "exported_at": timezone.now().isoformat(),
        "include_tokens": include_tokens,
        "event": _event(event, refs),
        "roles": refs.rows(
            EventRole.objects.filter(event=event).order_by("user__username", "role"), fmt.ROLE
        ),
        "entries": _entries(event, refs, include_tokens),
        "teams": _teams(event, refs),
        "keep_apart": refs.rows(
            KeepApart.objects.filter(event=event).order_by("pk"), fmt.KEEP_APART
        ),
        "games": _games(event, refs),
        "tie_playoffs": refs.rows(
            TiePlayoff.objects.filter(event=event).order_by("created_at", "pk"), fmt.TIE_PLAYOFF
        ),
        "judge_calls": _judge_calls(event, refs),
        "rulings": _rulings(event, refs),
        "playoff": _playoff(event, refs),
        "standings": _standings(event, refs),
        "notices": refs.rows(
            Notice.objects.filter(entry__event=event).order_by("created_at", "pk"), fmt.NOTICE
        ),
        "audit": _audit(event, refs),
        "ledger": _ledger(event, refs),
        "night_cards": refs.rows(
            NightCard.objects.filter(event=event).order_by("entry_id"), fmt.NIGHT_CARD
        ),
        "club_awards": refs.rows(
            ClubAward.objects.filter(event=event).order_by("created_at", "pk"), fmt.CLUB_AWARD
        ),
    }
    # Last, in this order: the players name their clubs and users.
    doc["players"] = _players(refs)
    doc["clubs"] = refs.rows(
        Club.objects.filter(name__in=sorted(refs.clubs)).order_by("name"), fmt.CLUB
    )
    users = get_user_model().objects.filter(username__in=sorted(refs.usernames))
    doc["users"] = [
        plain(row, fmt.USER_FIELDS) for row in users.order_by("username").values(*fmt.USER_FIELDS)
    ]
    return {name: doc[name] for name in fmt.SECTIONS}


def _event(event: Event, refs: _Refs) -> dict[str, Any]:
    columns = (*fmt.EVENT.columns, *fmt.SETTINGS_FIELDS, *fmt.MONEY)
    row = (
        Event.objects.filter(pk=event.pk)
        .values(*columns, "parent__name", "parent__starts_on")
        .get()
    )
    parent = None
    if row["parent__name"] is not None:
        parent = {"name": row["parent__name"], "starts_on": row["parent__starts_on"]}
        parent = plain(parent, ("name", "starts_on"))
    return {
        **refs.row(row, fmt.EVENT),
        "settings": plain(row, fmt.SETTINGS_FIELDS),
        "money": plain(row, fmt.MONEY),
        "parent": parent,
    }


def _entries(event: Event, refs: _Refs, include_tokens: bool) -> list[dict]:
    rows = Entry.objects.filter(event=event).order_by("pk")
    out = []
    for row in rows.values("pk", *fmt.ENTRY.columns, *fmt.TOKEN_FIELDS):
        item = {"key": refs.entry(row["pk"]), **refs.row(row, fmt.ENTRY)}
        if include_tokens:
            item.update(plain(row, fmt.TOKEN_FIELDS))
        out.append(item)
    return out


def _teams(event: Event, refs: _Refs) -> list[dict]:
    """A doubles event's teams, each naming its partners' entries."""
    members = defaultdict(list)
    teamed = Entry.objects.filter(event=event, team__isnull=False).order_by("pk")
    for team_id, entry_id in teamed.values_list("team_id", "pk"):
        members[team_id].append(refs.entry(entry_id))
    rows = Team.objects.filter(event=event).order_by("pk").values("pk", *fmt.TEAM.columns)
    return [{**refs.row(row, fmt.TEAM), "members": members[row["pk"]]} for row in rows]


def _games(event: Event, refs: _Refs) -> list[dict]:
    tables, lines, seats = defaultdict(list), defaultdict(list), defaultdict(list)
    for row in (
        Table.objects.filter(game__event=event)
        .order_by("number")
        .values("game_id", *fmt.TABLE.columns)
    ):
        tables[row["game_id"]].append(refs.row(row, fmt.TABLE))
    card_lines = CardLine.objects.filter(seat__game__event=event).order_by("created_at", "pk")
    for row in card_lines.values("seat_id", *fmt.CARD_LINE.columns):
        lines[row["seat_id"]].append(refs.row(row, fmt.CARD_LINE))
    for row in Seat.objects.filter(game__event=event).values(
        "pk", "game_id", "entry_id", "table__number", "position"
    ):
        seat = {
            "entry": refs.entry(row["entry_id"]),
            "table": row["table__number"],
            "position": row["position"],
        }
        seats[row["game_id"]].append({**seat, "lines": lines[row["pk"]]})
    games = Game.objects.filter(event=event).order_by("number").values("pk", *fmt.GAME.columns)
    return [
        {
            **refs.row(game, fmt.GAME),
            "tables": tables[game["pk"]],
            "seats": sorted(seats[game["pk"]], key=_seat_order),
        }
        for game in games
    ]


def _seat_order(seat: dict) -> tuple:
    """Tables in number order, position 1 first; the sit-out last."""
    return (seat["table"] is None, seat["table"] or 0, seat["position"] or 0)


def _judge_calls(event: Event, refs: _Refs) -> list[dict]:
    calls = JudgeCall.objects.filter(table__game__event=event).order_by("created_at", "pk")
    return [
        {
            "table": [row["table__game__number"], row["table__number"]],
            **refs.row(row, fmt.JUDGE_CALL),
        }
        for row in calls.values("table__game__number", "table__number", *fmt.JUDGE_CALL.columns)
    ]


def _rulings(event: Event, refs: _Refs) -> list[dict]:
    judges = defaultdict(list)
    through = Ruling.judges.through.objects.filter(ruling__event=event)
    for ruling_id, username in through.values_list("ruling_id", "user__username"):
        judges[ruling_id].append(refs.user(username))
    place = ("table__game__number", "table__number", "match_game__match__round",
             "match_game__match__slot", "match_game__number")  # fmt: skip
    rulings = Ruling.objects.filter(event=event).order_by("created_at", "pk")
    out = []
    for row in rulings.values("pk", *place, *fmt.RULING.columns):
        table, match_game = (row[p] for p in place[:2]), (row[p] for p in place[2:])
        at_table = row["table__number"] is not None
        out.append(
            {
                "table": list(table) if at_table else None,
                "match_game": None if at_table else list(match_game),
                "judges": sorted(judges[row["pk"]]),
                **refs.row(row, fmt.RULING),
            }
        )
    return out


def _playoff(event: Event, refs: _Refs) -> dict[str, Any] | None:
    row = Playoff.objects.filter(event=event).values("pk", *fmt.PLAYOFF.columns).first()
    if row is None:
        return None
    seeds = PlayoffSeed.objects.filter(playoff_id=row["pk"]).order_by("seed")
    return {
        **refs.row(row, fmt.PLAYOFF),
        "seeds": refs.rows(seeds, fmt.SEED),
        "matches": _matches(row["pk"], refs),
    }


def _matches(playoff_id: int, refs: _Refs) -> list[dict]:
    lines, games = defaultdict(list), defaultdict(list)
    match_lines = MatchLine.objects.filter(match_game__match__playoff_id=playoff_id)
    for row in match_lines.order_by("created_at", "pk").values(
        "match_game_id", *fmt.MATCH_LINE.columns
    ):
        lines[row["match_game_id"]].append(refs.row(row, fmt.MATCH_LINE))
    match_games = MatchGame.objects.filter(match__playoff_id=playoff_id).order_by("number")
    for row in match_games.values("pk", "match_id", *fmt.MATCH_GAME.columns):
        games[row["match_id"]].append({**refs.row(row, fmt.MATCH_GAME), "lines": lines[row["pk"]]})
    matches = Match.objects.filter(playoff_id=playoff_id).order_by("round", "slot")
    return [
        {**refs.row(row, fmt.MATCH), "games": games[row["pk"]]}
        for row in matches.values("pk", *fmt.MATCH.columns)
    ]


def _standings(event: Event, refs: _Refs) -> dict[str, Any] | None:
    """The latest snapshot only (see the module), its entry ids as keys."""
    latest = StandingsSnapshot.objects.filter(event=event).order_by("-computed_at", "-pk")
    row = latest.values(*fmt.SNAPSHOT.columns, "rows", "cut_tie").first()
    if row is None:
        return None
    return {
        **refs.row(row, fmt.SNAPSHOT),
        "rows": [
            {**{k: v for k, v in r.items() if k != "entry_id"}, "entry": refs.entry(r["entry_id"])}
            for r in row["rows"]
        ],
        "cut_tie": [refs.entry(e) for e in row["cut_tie"]],
    }


def _audit(event: Event, refs: _Refs) -> list[dict]:
    rows = AuditEntry.objects.filter(event=event).order_by("created_at", "pk")
    out = []
    for row in rows.values(*fmt.AUDIT.columns):
        item = refs.row(row, fmt.AUDIT)
        for side in ("before", "after"):
            item[side] = fmt.audit_translate(row["action"], row[side], refs.entry_in_history)
        out.append(item)
    return out


def _ledger(event: Event, refs: _Refs) -> dict[str, list]:
    finalisations = Finalisation.objects.filter(event=event).order_by("number")
    awards = MrpAward.objects.filter(event=event).order_by("created_at", "pk")
    return {
        "finalisations": refs.rows(finalisations, fmt.FINALISATION),
        "awards": [
            {"finalisation": row["finalisation__number"], **refs.row(row, fmt.AWARD)}
            for row in awards.values("finalisation__number", *fmt.AWARD.columns)
        ],
    }


def _players(refs: _Refs) -> list[dict]:
    rows = Player.objects.filter(pk__in=list(refs.players)).values("pk", *fmt.PLAYER.columns)
    by_id = {row["pk"]: row for row in rows}
    return [
        {"key": key, **refs.row(by_id[pk], fmt.PLAYER)} for pk, key in list(refs.players.items())
    ]


def event_backup_download(*, event: Event, user, include_tokens: bool = False) -> dict[str, Any]:
    """A director downloads the event's backup: the document, and a line in the history saying
    who took a copy (and whether it holds the private links, which are as good as passwords)."""
    document = event_export(event=event, include_tokens=include_tokens)
    audit_record(
        event=event,
        actor=user,
        kind=Kind.LINKS if include_tokens else Kind.SETTINGS,
        action="event_backup_download",
        summary="Backup downloaded"
        + (" with the players' private links" if include_tokens else " (no private links)"),
        after={"include_tokens": include_tokens, "entries": len(document["entries"])},
    )
    return document
