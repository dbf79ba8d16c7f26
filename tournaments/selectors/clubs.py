"""Reading clubs: a club's page, its season standings, the national Grass Roots leaderboard,
and skill-rating leaderboards with their win probabilities.

- member: a player whose home club this is, or who has played one of its nights.
- season standings: the season's night cards (``NightCard``) added up by the pure core
  (``core.seasons``), with the club's worst-nights rule, champion and awards.
- national Grass Roots leaderboard: every card of the season, every club the ACC office
  recognises (``Club.recognised``: Grass Roots is ACC club play), added up (a club's
  dropped nights are its own rule and are not applied here), ranked as a club's season is
  (``core.seasons.ranked``). A player's club is their home club, else the club where they
  played most of the season's nights (a club night's entry makes no home club).
- rating leaderboard: players by rated skill ``mu``; provisional ratings (too few games) are
  left out unless asked for, and marked when shown.
"""

from __future__ import annotations

from calendar import month_name
from dataclasses import dataclass

from django.db.models import Count, Max, Q, QuerySet, Sum
from django.http import Http404

from tournaments.core.clubs import club_key
from tournaments.core.ratings import DEFAULT_PARAMS, Rating, win_probability
from tournaments.core.seasons import RULES, Card, SeasonRow, champion, ranked, season_standings
from tournaments.errors import ServiceError
from tournaments.models import (
    Club,
    ClubAward,
    ClubRole,
    Event,
    NightCard,
    Player,
    PlayerRating,
    RatingPoint,
)
from tournaments.selectors.club_recognition import RecognitionStatus, club_recognition_status
from tournaments.selectors.people import person_name


def club_get(*, club_id: int) -> Club:
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise Http404("No such club.")
    return club


@dataclass(frozen=True)
class ClubPage:
    club: Club
    directors: list[str]
    members: int
    seasons: list[int]
    nights: list[Event]
    rule: str
    recognition: RecognitionStatus
    director_ids: list[tuple[int, str]]  # (user id, name) of each director, by name

    @property
    def season_words(self) -> str:
        """The club's season in words: "September to May"."""
        club = self.club
        return f"{month_name[club.season_start_month]} to {month_name[club.season_end_month]}"


def clubs_by_key() -> dict[str, Club]:
    """Every club by its name's key (``core.clubs.club_key``): how a name finds its club."""
    return {club_key(club.name): club for club in Club.objects.all()}


def club_named(name: str) -> Club | None:
    """The club ``name`` means, however it is spelled (case, accents and spacing aside)."""
    return clubs_by_key().get(club_key(name)) if name.strip() else None


def clubs_for_admin() -> QuerySet[Club]:
    """Every club with what names it (``nights``, ``members``, ``awards``): what an
    administrator weighs before merging or removing it (one query)."""
    return Club.objects.annotate(
        nights=Count("event", distinct=True),
        members=Count("player", distinct=True),
        award_count=Count("awards", distinct=True),
    ).order_by("name")


def club_page(*, club: Club) -> ClubPage:
    director_ids = sorted(
        (
            (role.user_id, person_name(role.user))
            for role in ClubRole.objects.filter(club=club).select_related("user__player")
        ),
        key=lambda pair: (pair[1], pair[0]),
    )
    directors = [name for _, name in director_ids]
    # order_by("season"): NightCard's default ordering would join DISTINCT and repeat a season
    # once per night and player.
    cards = NightCard.objects.filter(club=club).order_by("season")
    seasons = list(cards.values_list("season", flat=True).distinct())
    nights = list(
        Event.objects.filter(club=club, kind=Event.Kind.CLUB_NIGHT).order_by("-starts_on", "-pk")
    )
    return ClubPage(
        club, sorted(directors), club_members(club=club).count(), sorted(seasons, reverse=True),
        nights, RULES[club.grass_roots_rule].description, club_recognition_status(club=club),
        director_ids,
    )  # fmt: skip


def club_members(*, club: Club) -> QuerySet[Player]:
    return Player.objects.filter(
        Q(home_club=club) | Q(night_cards__club=club), merged_into__isnull=True
    ).distinct()


@dataclass(frozen=True)
class SeasonTable:
    club: Club
    season: int
    rows: list[tuple[SeasonRow, str]]  # each row with the player's name
    champion: str | None
    rule: str
    drop: int
    awards: list[ClubAward]
    nights: int


def season_table(*, club: Club, season: int) -> SeasonTable:
    """The club's season standings from its night cards (two queries, and one for awards)."""
    cards = list(NightCard.objects.filter(club=club, season=season).select_related("player"))
    names = {card.player_id: card.player.name for card in cards}
    rows = season_standings(
        (
            Card(c.player_id, c.event_id, c.grass_roots_points, c.game_points, c.games_won,
                 c.games_played, c.net_spread)
            for c in cards
        ),
        drop=club.drop_worst_nights,
    )  # fmt: skip
    winner = champion(rows)
    awards = list(
        ClubAward.objects.filter(club=club, season=season).select_related("player", "event")
    )
    return SeasonTable(
        club, season, [(row, names[row.player_id]) for row in rows],
        names.get(winner) if winner else None, RULES[club.grass_roots_rule].description,
        club.drop_worst_nights, awards, len({c.event_id for c in cards}),
    )  # fmt: skip


@dataclass(frozen=True)
class NationalRow:
    rank: int
    player_id: int
    name: str
    club: str | None  # the home club, else the club of most of the season's nights
    grass_roots_points: int
    nights: int
    games_won: int
    net_spread: int


def national_grass_roots(*, season: int) -> list[NationalRow]:
    """Every player's Grass Roots points of ``season``, all clubs, best first, ranked by the
    clubs' own rule (``core.seasons.ranked``); two queries."""
    totals = (
        NightCard.objects.filter(
            season=season, club__recognised=True, player__merged_into__isnull=True
        )
        .values("player_id", "player__name", "player__home_club__name")
        .annotate(
            points=Sum("grass_roots_points"), nights=Count("id"), won=Sum("games_won"),
            played=Sum("games_played"), spread=Sum("net_spread"),
        )
    )  # fmt: skip
    totals = {t["player_id"]: t for t in totals}
    rows = ranked(
        SeasonRow(0, p, t["points"], t["nights"], t["won"], t["played"], t["spread"], ())
        for p, t in totals.items()
    )
    played_at = _clubs_played(season)
    return [
        NationalRow(
            row.rank, row.player_id, totals[row.player_id]["player__name"],
            totals[row.player_id]["player__home_club__name"] or played_at.get(row.player_id),
            row.grass_roots_points, row.nights, row.games_won, row.net_spread,
        )
        for row in rows
    ]  # fmt: skip


def _clubs_played(season: int) -> dict[int, str]:
    """Each player's club of ``season`` by the nights played: most nights, then the latest."""
    clubs: dict[int, str] = {}
    nights = (
        NightCard.objects.filter(season=season, club__recognised=True)
        .values("player_id", "club__name")
        .annotate(nights=Count("id"), last=Max("played_on"))
        .order_by("player_id", "-nights", "-last", "club__name")
    )
    for row in nights:
        clubs.setdefault(row["player_id"], row["club__name"])
    return clubs


def rating_leaderboard(*, club: Club | None = None, provisional: bool = False) -> QuerySet:
    """Ratings, best ``mu`` first; provisional ones only if asked for."""
    ratings = PlayerRating.objects.select_related("player__home_club").filter(
        player__merged_into__isnull=True
    )
    if club is not None:
        ratings = ratings.filter(player__in=club_members(club=club))
    if not provisional:
        ratings = ratings.filter(games__gte=DEFAULT_PARAMS.provisional_games)
    return ratings.order_by("-mu", "player__name")


def rating_of(player: Player) -> Rating | None:
    row = PlayerRating.objects.filter(player=player).first()
    return Rating(row.mu, row.sigma, row.games) if row else None


def rating_history(*, player: Player) -> list[RatingPoint]:
    return list(
        RatingPoint.objects.filter(player=player)
        .select_related("event")
        .order_by("played_on", "event_id")
    )


@dataclass(frozen=True)
class Prediction:
    player: Player
    opponent: Player
    player_rating: Rating
    opponent_rating: Rating
    probability: float  # the player's chance to win one game


def opponents_named(*, text: str, player: Player, limit: int = 20) -> list[Player]:
    """Players (not merged away, not ``player``) whose name holds ``text``, closest first."""
    text = " ".join(text.split())
    if not text:
        return []
    found = (
        Player.objects.filter(name__icontains=text, merged_into__isnull=True)
        .exclude(pk=player.pk)
        .select_related("home_club")
        .order_by("name", "pk")[: limit + 1]
    )
    exact = [p for p in found if p.name.casefold() == text.casefold()]
    return exact if len(exact) == 1 else list(found)


def predict(*, player: Player, opponent: Player) -> Prediction:
    """One game between two players, by their ratings (a new player starts at the default).
    A player against themself has no chance to speak of: refused, naming ``opponent``."""
    if player.pk == opponent.pk:
        raise ServiceError(
            f"{player.name} cannot play themself: choose another player as the opponent.",
            field="opponent",
            code="same_player",
        )
    start = Rating(DEFAULT_PARAMS.mu, DEFAULT_PARAMS.sigma, 0)
    a, b = rating_of(player) or start, rating_of(opponent) or start
    return Prediction(player, opponent, a, b, win_probability(a, b))
