"""A player across events (their page) and the Master Rating Points leaderboards.

- events played: the player's entries in published events (all of them for the player
  themselves), but never a night of a club the ACC office has not recognised
  (``selectors.club_recognition.SHARED_RECORD``), newest first, each with the finish, game
  points, net spread and MRPs.
- finish: the playoff band of a finalised event's award ("1", "3-4"...), else the player's
  qualifying rank in the latest standings.
- doubles: a team's card and standings row are its first partner's entry's; each partner's
  row shows the team's game points, spread and rank, and ``team`` names the team with both
  partners ("Aces (Ann and Bob)").
- totals: ``mrp_total`` (lifetime) and ``mrp_by_year``, from the ledger's current awards.
- leaderboard: players by MRPs, for a year or for all time, optionally only one club's or one
  region's (by the player's home club); ranks are shared on equal points (1, 2, 2, 4).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from django.db.models import Count, F, Max, Q, QuerySet, Sum, Window
from django.db.models.functions import Rank
from django.http import Http404

from tournaments.core.bracket import bracket_size, finish_of
from tournaments.core.money import held_places
from tournaments.core.ratings import Rating
from tournaments.models import (
    CardLine,
    Entry,
    MrpAward,
    Player,
    PlayerRating,
    StandingsSnapshot,
)
from tournaments.selectors.club_recognition import SHARED_RECORD
from tournaments.selectors.entrants import entry_entrants


@dataclass(frozen=True)
class PlayedEvent:
    event_id: int
    event: str
    starts_on: date | None
    kind: str
    status: str
    finish: str
    game_points: int
    net_spread: int
    mrp: int | None
    member: bool | None  # the award's flag: None without an award
    team: str = ""  # the team and its partners in a doubles event


@dataclass(frozen=True)
class PlayerPage:
    player: Player
    events: list[PlayedEvent]
    mrp_total: int
    mrp_by_year: dict[int, int] = field(default_factory=dict)
    rating: Rating | None = None  # None before the player's first rated event

    @property
    def provisional(self) -> bool:
        return self.rating is None or self.rating.provisional()


def player_get(*, player_id: int) -> Player:
    """The player record (404 if none); a merged record answers with the one it joined."""
    player = Player.objects.select_related("home_club", "merged_into").filter(pk=player_id).first()
    if player is None:
        raise Http404("No such player.")
    while player.merged_into_id is not None:
        player = Player.objects.select_related("home_club", "merged_into").get(
            pk=player.merged_into_id
        )
    return player


def _band(award: MrpAward) -> str:
    rounds = bracket_size(award.qualifiers).bit_length() - 1
    if not rounds:
        return "1"
    first, last = finish_of(award.round_lost, rounds)
    return held_places(first, last, award.qualifiers)


def _ranks(event_ids: list[int], entry_ids: set[int]) -> dict[int, int]:
    """Each entry's rank in the latest standings of its event (two queries)."""
    latest = (
        StandingsSnapshot.objects.filter(event_id__in=event_ids)
        .values("event_id")
        .annotate(last=Max("id"))
        .values_list("last", flat=True)
    )
    ranks = {}
    for rows in StandingsSnapshot.objects.filter(pk__in=list(latest)).values_list(
        "rows", flat=True
    ):
        for row in rows:
            if row["entry_id"] in entry_ids:
                ranks[row["entry_id"]] = row["rank"]
    return ranks


def player_page(*, player: Player, viewer) -> PlayerPage:
    """The player's events and points, for their page and the API (a fixed number of queries)."""
    entries = Entry.objects.filter(SHARED_RECORD, player=player).select_related("event")
    if not (viewer.is_authenticated and (viewer.is_staff or player.user_id == viewer.pk)):
        entries = entries.filter(event__published=True)
    entries = list(entries.order_by("-event__starts_on", "-event_id"))
    ids = {e.pk for e in entries}
    card, teams = _team_cards(entries)
    cards = {card.get(pk, pk) for pk in ids}
    totals = {
        row["seat__entry_id"]: row
        for row in CardLine.objects.filter(seat__entry_id__in=cards, kind="verified", current=True)
        .values("seat__entry_id")
        .annotate(gp=Sum("game_points"), net=Sum("plus") - Sum("minus"))
        .order_by()
    }
    awards = {a.entry_id: a for a in MrpAward.objects.filter(entry_id__in=ids, current=True)}
    ranks = _ranks([e.event_id for e in entries], cards - set(awards))
    events = []
    for e in entries:
        held = card.get(e.pk, e.pk)
        rank = str(ranks[held]) if held in ranks else ""
        events.append(PlayedEvent(
            e.event_id, e.event.name, e.event.starts_on, e.event.get_kind_display(),
            e.get_status_display(), _band(awards[e.pk]) if e.pk in awards else rank,
            (totals.get(held) or {}).get("gp") or 0, (totals.get(held) or {}).get("net") or 0,
            awards[e.pk].points if e.pk in awards else None,
            awards[e.pk].member if e.pk in awards else None, teams.get(e.pk, ""),
        ))  # fmt: skip
    found = PlayerRating.objects.filter(player=player).first()
    rating = Rating(found.mu, found.sigma, found.games) if found else None
    return PlayerPage(player, events, *_totals(player), rating)


def _team_cards(entries: list[Entry]) -> tuple[dict[int, int], dict[int, str]]:
    """For the player's doubles entries: each one's card entry (the team's first partner's)
    and its team as pages name it (no query without a doubles entry)."""
    teamed = [e for e in entries if e.team_id]
    if not teamed:
        return {}, {}
    named = entry_entrants(entries=Entry.objects.filter(team_id__in={e.team_id for e in teamed}))
    first: dict[int, int] = {}
    for pk, (_, team, _, _) in sorted(named.items()):
        first.setdefault(team, pk)
    return (
        {e.pk: first[e.team_id] for e in teamed},
        {e.pk: named[e.pk][3] for e in teamed if e.pk in named},
    )


def _totals(player: Player) -> tuple[int, dict[int, int]]:
    by_year = dict(
        MrpAward.objects.filter(player=player, current=True)
        .values("year")
        .annotate(points=Sum("points"))
        .order_by("year")
        .values_list("year", "points")
    )
    return sum(by_year.values()), by_year


@dataclass(frozen=True)
class LeaderboardFilters:
    year: int | None = None
    club: int | None = None
    region: str | None = None


def mrp_leaderboard(*, filters: LeaderboardFilters = LeaderboardFilters()) -> QuerySet:
    """Rows of (rank, player_id, name, club, region, points, events), best first; slice it
    for a page (one query per page, however many players)."""
    awards = MrpAward.objects.filter(current=True, player__merged_into__isnull=True)
    if filters.year is not None:
        awards = awards.filter(year=filters.year)
    if filters.club is not None:
        awards = awards.filter(player__home_club_id=filters.club)
    if filters.region:
        awards = awards.filter(player__home_club__region__iexact=filters.region)
    return (
        awards.values("player_id")
        .annotate(
            name=F("player__name"),
            club=F("player__home_club__name"),
            region=F("player__home_club__region"),
            points=Sum("points"),
            events=Count("event_id", distinct=True),
        )
        .annotate(rank=Window(expression=Rank(), order_by=F("points").desc()))
        .order_by("-points", "name", "player_id")
    )


def leaderboard_years() -> list[int]:
    return list(
        MrpAward.objects.filter(current=True)
        .values_list("year", flat=True)
        .distinct()
        .order_by("-year")
    )


def leaderboard_regions() -> list[str]:
    return list(
        Player.objects.filter(~Q(home_club__region=""), home_club__isnull=False)
        .values_list("home_club__region", flat=True)
        .distinct()
        .order_by("home_club__region")
    )
