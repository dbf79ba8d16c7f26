"""The teams of a player list imported into a doubles event (``entries_import``).

- team key: what ties a list's rows into a team: the "Team" cell (case and spacing aside), or
  the row itself when a "Partner" cell puts both partners on one row (``core.player_list``).
- a team of the list is two players; either may be entered already (an updated list sent
  again), and a pair that already plays as a team is left as it is.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from tournaments.core import player_list
from tournaments.errors import ServiceError
from tournaments.models import Entry, Event, Team
from tournaments.services.entries import Registration
from tournaments.services.teams import TEAM_SIZE, team_make_unaudited


def team_registrations(
    number: int, values: dict[str, str]
) -> tuple[list[Registration], str | None]:
    """A row's players (one, or two with a partner) with their team key; and the team's name
    when the row gives one."""
    reg = Registration(**{k: values[k] for k in player_list.FIELDS})
    team, partner = values.get("team", ""), values.get("partner", "")
    key = f"team:{player_list.name_key(team)}" if team else (f"row:{number}" if partner else "")
    regs = [replace(reg, team=key)]
    if partner:
        acc = values.get("partner_acc_number", "")
        regs.append(Registration(name=partner, acc_number=acc, club=reg.club, team=key))
    return regs, (team or None)


def team_row_errors(
    event: Event, rows: list[tuple[int, Registration]]
) -> list[tuple[int, str, str]]:
    """A list with teams for a singles event, and teams of the list that are not two players."""
    keyed = defaultdict(list)
    for n, reg in rows:
        if reg.team:
            keyed[reg.team].append(n)
    if keyed and not event.in_teams:
        raise ServiceError(
            f"The list has teams, but {event.name} is a singles event. To play in pairs, set "
            '"How it is played" to Doubles on the event\'s settings page, then import it again.',
            field="file",
            code="singles_event",
        )
    errors = []
    for numbers in keyed.values():
        if len(numbers) != TEAM_SIZE:
            where = ", ".join(map(str, numbers))
            errors.append(
                (numbers[0], "team", f"A team is two players; this one has {len(numbers)} "
                 f"(row{'s' if len(numbers) > 1 else ''} {where}).")
            )  # fmt: skip
    return errors


def teams_from_rows(
    event: Event,
    rows: list[tuple[int, Registration]],
    made: list[tuple[Registration, Entry]],
    names: dict[str, str],
) -> list[Team]:
    """The list's teams made from the entries just made (``made``) and those entered before."""
    entered = player_list.PlayerIndex()
    for entry in event.entries.exclude(status=Entry.Status.WITHDRAWN).select_related("player"):
        entered.add(entry, name=entry.name, acc_number=entry.player.acc_number)
    members = defaultdict(list)
    for reg, entry in made:
        if reg.team:
            members[reg.team].append(entry)
    for _, reg in rows:  # a partner entered before: found as the import skipped them
        if reg.team and len(members[reg.team]) < TEAM_SIZE:
            found = entered.find(name=reg.name, acc_number=reg.acc_number)
            if found is not None and found not in members[reg.team]:
                members[reg.team].append(found)
    teams = []
    for key, entries in members.items():
        if len(entries) != TEAM_SIZE:
            continue
        if entries[0].team_id and entries[0].team_id == entries[1].team_id:
            continue  # already partners: the list was sent again
        teams.append(team_make_unaudited(event, entries, name=names.get(key, "")))
    return teams
