"""The entrant seam: what an entry plays as, and how it is named.

An *entrant* is the unit that is paired and ranked: one player's entry in a singles event, a
team of two entries (``Team``) in a doubles event. ``entrant_of`` gives any entry's or team's
display name and players (``entrant_label`` one side of a game, team and partners);
``entry_names`` names a whole field in one query (the standings, the
cut, the ACC package) from the query path ``ENTRANT_NAME``; ``teams_of_event`` lists an event's
teams with their partners. Pages, sheets, exports and e-mails name entrants through these and
nothing else.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch, QuerySet

from tournaments.models import ENTRANT_NAME, Entry, Player, Team


@dataclass(frozen=True)
class Member:
    """One partner of a team: their own entry (private link, check-in) and player record."""

    entry_id: int
    player_id: int
    name: str
    acc_number: str
    status: str


@dataclass(frozen=True)
class Entrant:
    """What plays: its display name, its players, and the team it is (None for one player)."""

    name: str
    players: tuple[Player, ...]
    team_id: int | None = None

    @property
    def partners(self) -> str:
        """The players' names, as "Ann and Bob" (one name for a single player)."""
        return " and ".join(player.name for player in self.players)

    @property
    def named_by_partners(self) -> bool:
        """Whether the name already says who plays ("Ann & Bob", the default)."""
        return self.name == team_default_name([player.name for player in self.players])


def team_default_name(names: list[str]) -> str:
    """A team's name when the director gives none: "Ann & Bob"."""
    return " & ".join(name.strip() for name in names)


def team_label(name: str, partners: list[str]) -> str:
    """A team as a page names it: "Aces (Ann and Bob)", or "Ann & Bob" alone (the default name
    says who plays)."""
    if name == team_default_name(partners):
        return name
    return f"{name} ({' and '.join(partners)})"


def entrant_of(unit: Entry | Team) -> Entrant:
    """The entrant an entry plays as (its team's, in a doubles event), or a team's."""
    if isinstance(unit, Entry):
        team = unit.team if unit.team_id else None
        if team is None:
            return Entrant(name=unit.name, players=tuple(unit.players))
        unit = team
    return Entrant(name=unit.name, players=tuple(unit.players), team_id=unit.pk)


def entrant_label(entry: Entry) -> str:
    """What an entry plays as, named where one side of a game is meant (a ruling's offender
    and winner): the player, or their team with its partners ("Aces (Ann and Bob)", "Ann &
    Bob"). Reads ``team.members`` (with their players) as prefetched when it is."""
    team = entry.team if entry.team_id else None
    if team is None:
        return entry.name
    partners = [member.name for member in sorted(team.members.all(), key=lambda e: e.pk)]
    return team_label(team.name, partners)


def team_members(team: Team) -> list[Member]:
    """A team's partners in the order they were entered (prefetched by ``teams_of_event``)."""
    return [
        Member(
            entry_id=entry.pk,
            player_id=entry.player_id,
            name=entry.name,
            acc_number=entry.player.acc_number,
            status=entry.status,
        )
        for entry in sorted(team.members.all(), key=lambda e: e.pk)
    ]


def teams_of_event_qs() -> QuerySet[Team]:
    members = Entry.objects.select_related("player").order_by("id")
    return Team.objects.prefetch_related(Prefetch("members", queryset=members))


def teams_of_event(*, event) -> QuerySet[Team]:
    """The event's teams by name, each with its partners (two queries)."""
    return teams_of_event_qs().filter(event=event)


def entry_names(*, entries: QuerySet[Entry]) -> dict[int, str]:
    """Each entry's name by id, as ``Entry.name`` gives it."""
    return dict(entries.order_by().values_list("pk", ENTRANT_NAME))


def entry_team_names(*, entries: QuerySet[Entry]) -> dict[int, str]:
    """Each entry's entrant by id: its team's name, or its own name without a team."""
    return {pk: entrant[0] for pk, entrant in entry_entrants(entries=entries).items()}


def entry_entrants(*, entries: QuerySet[Entry]) -> dict[int, tuple[str, int | None, str, str]]:
    """Each entry by id as (its entrant's name, its team's id or None, the partners' names
    "Ann and Bob" or "", the label a page shows: ``team_label``), in two queries: the rows of
    standings and results name teams so."""
    rows = list(entries.order_by("pk").values_list("pk", ENTRANT_NAME, "team_id", "team__name"))
    partners: dict[int, list[str]] = {}
    teamed = Entry.objects.filter(team_id__in={team for _, _, team, _ in rows if team})
    for team, name in teamed.order_by("pk").values_list("team_id", ENTRANT_NAME):
        partners.setdefault(team, []).append(name)
    answer = {}
    for pk, name, team, team_name in rows:
        if team:
            names = partners.get(team, [])
            answer[pk] = (team_name, team, " and ".join(names), team_label(team_name, names))
        else:
            answer[pk] = (name, None, "", name)
    return answer


def teams_in_game(*, event, number: int) -> dict[int, tuple[int, int]]:
    """The teams of a doubles event that play game ``number``: both partners in its field
    (``Entry.plays_in``), as team id -> the partners' entry ids (first entered first)."""
    members: dict[int, list[Entry]] = {}
    entries = event.entries.filter(team__isnull=False).exclude(status=Entry.Status.REGISTERED)
    for entry in entries.order_by("id"):
        members.setdefault(entry.team_id, []).append(entry)
    return {
        team: (pair[0].pk, pair[1].pk)
        for team, pair in sorted(members.items())
        if len(pair) == 2 and all(entry.plays_in(number) for entry in pair)
    }


def team_ids_of_entries(*, event) -> dict[int, int]:
    """Each teamed entry's team id, for the event's doubles history."""
    rows = event.entries.filter(team__isnull=False).values_list("pk", "team_id")
    return dict(rows)
