"""Keeping every player's skill rating (``core.ratings``) up to date, as jobs.

- rated event: an event whose games are in the ratings: a night of a club the ACC office
  recognises once its last game is verified, an event the ACC office sanctions once its final
  is decided (its qualifying games, then its playoff games); ``selectors.club_recognition``
  says which (``RATED_EVENTS``). Anyone may make a club or an event, so an unrecognised club's
  night and an unsanctioned event stay out: a stranger's made-up games never move a real
  player's rating. Granting or withdrawing a recognition or a sanction recomputes every rating
  (``ratings_recompute_request``). ``Event.rated_at`` marks a rated event. A doubles event
  (a club night in pairs too) is left out, as the backtest decided
  (``bench/ratings_doubles.py``, issue 26 item 5): rating its games two against two with
  OpenSkill's team model made singles prediction no better (test log-loss
  0.6874 with them, 0.6871 without; the difference's 95% interval -0.0005 to +0.0011) and
  predicted doubles games no better than a coin flip could be told from (0.6894 against
  0.6931, interval of the difference -0.0174 to +0.0112, 513 test games). The ratings page says
  so.
- rated game: a verified game with one winner and one loser, played at a table or in a match.
  Not rated: sit-outs, administrative results (a ruling's forfeit, the no-show clock), void
  games, and tables whose two verified lines are both losses (Rule 12.2 case e).
- order: by the event's date, then the event, then game and table numbers (playoff games
  after the event's qualifying games, by round, match and game).
- incremental: a newly finished event later than every rated one updates only its players,
  from their current ratings, and adds one history point each. Anything else (an event dated
  before one already rated, a correction to a rated event) recomputes every rating from
  scratch, which gives the same numbers as the incremental path for the same games.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from datetime import date

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from tournaments.core.ratings import DEFAULT_PARAMS, SYSTEM, RatedGame, Rating, RatingBook
from tournaments.models import (
    CardLine,
    Event,
    Job,
    MatchGame,
    MatchLine,
    PlayerRating,
    RatingPoint,
    Ruling,
)
from tournaments.selectors.club_recognition import RATED_EVENTS
from tournaments.services.jobs import Progress, job_enqueue


def ratings_request(*, event: Event) -> Job:
    """A finished event's games go into the ratings, by a job (incremental when it can)."""
    return job_enqueue(
        kind="ratings",
        key=f"event:{event.pk}",
        task="tournaments.tasks.rate_event",
        event_id=event.pk,
    )


def ratings_recompute_request(*, user=None) -> Job:
    return job_enqueue(
        kind="ratings-all", key="all", task="tournaments.tasks.rate_all", created_by=user
    )


def _played_on(event: Event) -> date:
    return event.starts_on or event.created_at.date()


def _table_games(event_ids: list[int]) -> Iterator[tuple[int, RatedGame]]:
    """(event id, game) for every rated table game of these events, in play order."""
    administrative = set(
        Ruling.objects.filter(
            event_id__in=event_ids, game_over=True, direction="administrative", table__isnull=False
        ).values_list("table_id", flat=True)
    )
    skunk = dict(Event.objects.filter(pk__in=event_ids).values_list("pk", "skunk_margin"))
    lines = (
        CardLine.objects.filter(
            seat__game__event_id__in=event_ids,
            seat__table__isnull=False,
            kind=CardLine.Kind.VERIFIED,
            current=True,
        )
        .exclude(source=CardLine.Source.FORFEIT)
        .order_by("seat__game__event_id", "seat__game__number", "seat__table__number")
        .values_list("seat__game__event_id", "seat__table_id", "seat__entry__player_id",
                     "game_points", "plus")
    )  # fmt: skip
    yield from _pairs(lines, administrative, skunk)


def _pairs(lines, skip: set[int], skunk_margin: dict[int, int]):
    table, both = None, []
    for event_id, table_id, player, points, plus in lines.iterator(chunk_size=20_000):
        if table_id != table:
            yield from _game_of(both, skip, skunk_margin)
            table, both = table_id, []
        both.append((event_id, table_id, player, points, plus))
    yield from _game_of(both, skip, skunk_margin)


def _game_of(both, skip, skunk_margin):
    if len(both) != 2 or both[0][1] in skip:
        return
    winners = [line for line in both if line[3] > 0]
    if len(winners) != 1:
        return
    winner = winners[0]
    loser = both[1] if winner is both[0] else both[0]
    yield winner[0], RatedGame(winner[2], loser[2], winner[4] >= skunk_margin[winner[0]])


def _match_games(event_ids: list[int]) -> Iterator[tuple[int, RatedGame]]:
    """(event id, game) for every rated playoff game of these events, in play order."""
    lines = (
        MatchLine.objects.filter(
            match_game__match__playoff__event_id__in=event_ids,
            match_game__status=MatchGame.Status.VERIFIED,
            match_game__forfeit=False,
            kind=MatchLine.Kind.VERIFIED,
            current=True,
        )
        .exclude(source=MatchLine.Source.FORFEIT)
        .order_by(
            "match_game__match__playoff__event_id", "match_game__match__round",
            "match_game__match__slot", "match_game__number",
        )
        .values_list("match_game__match__playoff__event_id", "match_game_id",
                     "entry__player_id", "game_points", "plus")
    )  # fmt: skip
    skunk = dict(Event.objects.filter(pk__in=event_ids).values_list("pk", "skunk_margin"))
    yield from _pairs(lines, set(), skunk)


def _games(events: list[Event]) -> Iterator[tuple[int, RatedGame]]:
    ids = [e.pk for e in events]
    by_event: dict[int, list[RatedGame]] = defaultdict(list)
    for event_id, game in _table_games(ids):
        by_event[event_id].append(game)
    for event_id, game in _match_games(ids):
        by_event[event_id].append(game)
    for event in events:
        for game in by_event.get(event.pk, ()):
            yield event.pk, game


def _store(book: RatingBook, players: Iterable[int]) -> None:
    rows = [
        PlayerRating(player_id=p, mu=r.mu, sigma=r.sigma, games=r.games, system=SYSTEM)
        for p in players
        for r in [book.rating(p)]
    ]
    PlayerRating.objects.bulk_create(
        rows,
        update_conflicts=True,
        unique_fields=["player"],
        update_fields=["mu", "sigma", "games", "system", "updated_at"],
    )


def _points(book: RatingBook, event: Event, players: Iterable[int]) -> list[RatingPoint]:
    day = _played_on(event)
    return [
        RatingPoint(player_id=p, event=event, played_on=day, mu=r.mu, sigma=r.sigma, games=r.games)
        for p in players
        for r in [book.rating(p)]
    ]


def _rateable() -> list[Event]:
    events = Event.objects.filter(
        RATED_EVENTS, stage=Event.Stage.FINISHED, style=Event.Style.SINGLES
    )
    events = events.order_by("starts_on", "pk")
    return sorted(events, key=lambda e: (_played_on(e), e.pk))


def ratings_recompute_all(*, progress: Progress | None = None, job: Job | None = None):
    """Every rating from scratch, from every rated event's games (the full job's work)."""
    events = _rateable()
    book = RatingBook(DEFAULT_PARAMS)
    points: list[RatingPoint] = []
    players_of: dict[int, set[int]] = defaultdict(set)
    games = 0
    by_id = {e.pk: e for e in events}
    current = None
    for event_id, game in _games(events):
        if current is not None and event_id != current:
            points += _points(book, by_id[current], players_of[current])
        current = event_id
        book.apply(game)
        players_of[event_id].update((game.winner, game.loser))
        games += 1
    if current is not None:
        points += _points(book, by_id[current], players_of[current])
    with transaction.atomic():
        RatingPoint.objects.all().delete()  # derived data: rebuilt whole from the games
        PlayerRating.objects.all().delete()
        _store(book, book.ratings())
        RatingPoint.objects.bulk_create(points, batch_size=5_000)
        Event.objects.filter(pk__in=list(by_id)).update(rated_at=timezone.now())
        Event.objects.exclude(pk__in=list(by_id)).update(rated_at=None)
    return {"events": len(events), "games": games, "players": len(book.ratings())}


def ratings_update_event(*, event_id: int, job: Job | None = None, progress=None) -> dict:
    """The rating job for one finished event (see the module for when it recomputes all)."""
    event = Event.objects.get(pk=event_id)
    if event.in_teams:
        return {"rated": False, "why": "a doubles event is left out of the ratings"}
    if event.stage != Event.Stage.FINISHED:  # reopened by a correction: out of the ratings
        if event.rated_at is None:
            return {"rated": False, "why": "not finished"}
        return {"recomputed": True, **ratings_recompute_all()}
    if not Event.objects.filter(RATED_EVENTS, pk=event.pk).exists():
        if event.rated_at is None:
            return {"rated": False, "why": "neither sanctioned nor a recognised club's night"}
        return {"recomputed": True, **ratings_recompute_all()}
    latest = Event.objects.filter(rated_at__isnull=False).exclude(pk=event.pk)
    last_day = latest.aggregate(day=Max("starts_on"))["day"]
    if event.rated_at is not None or (last_day and _played_on(event) < last_day):
        return {"recomputed": True, **ratings_recompute_all()}
    games = [game for _, game in _games([event])]
    players = {p for g in games for p in (g.winner, g.loser)}
    start = {
        r.player_id: Rating(r.mu, r.sigma, r.games)
        for r in PlayerRating.objects.filter(player_id__in=players)
    }
    book = RatingBook(DEFAULT_PARAMS, start)
    book.apply_all(games)
    with transaction.atomic():
        _store(book, players)
        RatingPoint.objects.bulk_create(_points(book, event, players))
        Event.objects.filter(pk=event.pk).update(rated_at=timezone.now())
    return {"recomputed": False, "games": len(games), "players": len(players)}
