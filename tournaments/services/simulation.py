"""A simulated weekend, played through the real services and jobs.

Every game is played by the engine's simulator (``scoring.simulate_game``), so each card line is
a real cribbage result. Both players report every game; a few write a different spread on their
card (the cross-check settles them), a few tables get a judges' ruling, and the playoffs are
reported game by game until there is a champion. A doubles event is played by teams of two,
either partner reporting the team's card. Used by ``manage.py simulate_event``, the demo data
of ``make run`` and the end-to-end test.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date

from django.contrib.auth import get_user_model
from django.db import transaction

from scoring import simulate_game
from scoring.games import CardLine as EngineLine
from tournaments.errors import ServiceError
from tournaments.models import Club, Event, EventRole, Game, Job, Match, Player, Table
from tournaments.selectors.entrants import entrant_of
from tournaments.selectors.results import current_lines
from tournaments.services.clubs import club_night_create
from tournaments.services.corrections import table_correct, table_cross_check
from tournaments.services.entries import Registration, entry_register
from tournaments.services.events import (
    event_close_registration,
    event_create,
    event_update_settings,
)
from tournaments.services.pairings import game_pairings_request, game_publish
from tournaments.services.playoffs import playoff_build_request
from tournaments.services.playoffs_matches import match_game_report
from tournaments.services.results import card_line_report, game_close
from tournaments.services.roles import event_role_grant
from tournaments.services.rulings import ruling_record
from tournaments.services.teams import team_register

FIRST = (
    "Ada",
    "Bill",
    "Carol",
    "Dan",
    "Edna",
    "Frank",
    "Grace",
    "Hank",
    "Iris",
    "Jack",
    "Kay",
    "Lou",
    "Mae",
    "Ned",
    "Opal",
    "Pete",
    "Rose",
)
LAST = (
    "Baker",
    "Carter",
    "Diaz",
    "Evans",
    "Foster",
    "Green",
    "Hill",
    "Irwin",
    "Jones",
    "King",
    "Lewis",
    "Moore",
    "Nash",
    "Olsen",
)


@dataclass
class SimulationReport:
    event: Event
    games_played: int = 0
    disagreements: int = 0
    rulings: int = 0
    match_games: int = 0
    champion: str | None = None


def player_names(count: int, rng: random.Random) -> list[str]:
    names = [f"{first} {last}" for last in LAST for first in FIRST]
    rng.shuffle(names)
    if count > len(names):
        names += [f"Player {i}" for i in range(len(names), count)]
    return names[:count]


def event_simulate(
    *,
    players: int,
    games: int,
    seed: int,
    director,
    name: str | None = None,
    preset: str = "acc-main",
    stop_after_game: int | None = None,
    disagree_every: int = 25,
    rulings: int = 2,
    club: Club | None = None,
    played_on: date | None = None,
    style: str = Event.Style.SINGLES,
) -> SimulationReport:
    """Run a whole event (a club night of ``club`` when given, made from the club's
    defaults); ``stop_after_game`` leaves it in progress after that game. A doubles or
    Canadian Doubles ``style`` enters ``players`` // 2 teams (the doubles satellite preset
    unless another is given) and each table's result is reported by a partner of each team,
    chosen at random."""
    rng = random.Random(seed)
    if club is not None:
        event = club_night_create(club=club, user=director, played_on=played_on or date.today())
        if style != Event.Style.SINGLES:  # a night in pairs, of the length asked
            event = event_update_settings(
                event=event, user=director, style=style, qualifying_games=games
            )
        games = event.qualifying_games
    else:
        if style != Event.Style.SINGLES and preset == "acc-main":
            preset = "acc-doubles-satellite"
        event = event_create(
            user=director, name=name or f"Simulated weekend {seed}", preset=preset,
            qualifying_games=games, published=True, qualifier_ratio=4, starts_on=played_on,
            style=style,
        )  # fmt: skip
    report = SimulationReport(event=event)
    registrations = [_registration(player_name) for player_name in player_names(players, rng)]
    if event.in_teams:
        for first, second in zip(registrations[0::2], registrations[1::2], strict=False):
            team_register(event=event, players=[first, second], check_in=True, user=director)
    else:
        for registration in registrations:
            entry_register(event=event, registration=registration, check_in=True, user=director)
    event_close_registration(event=event, user=director)
    judges = _judges(event, seed, director)
    last = games if stop_after_game is None else min(games, stop_after_game)
    for number in range(1, last + 1):
        _play_game(event, number, director, rng, report, judges, disagree_every, rulings)
    if (stop_after_game is None or stop_after_game >= games) and event.qualifier_ratio:
        _play_playoffs(event, director, rng, report)
    event.refresh_from_db()
    return report


def _registration(player_name: str) -> Registration:
    known = Player.objects.filter(name=player_name, merged_into__isnull=True).first()
    return Registration(  # the director confirms a player seen before
        name=player_name, player_id=known.pk if known else None, new_player=known is None
    )


def _judges(event: Event, seed: int, director) -> list:
    users = []
    for n in (1, 2):
        user, _ = get_user_model().objects.get_or_create(username=f"judge{n}-sim{seed}")
        event_role_grant(
            event=event, actor=director, person=user.username, role=EventRole.Role.JUDGE
        )
        users.append(user)
    return users


def _play_game(event, number, director, rng, report, judges, disagree_every, rulings) -> None:
    job = game_pairings_request(event=event, number=number, user=director)
    job.refresh_from_db()
    if job.status == Job.Status.FAILED:
        raise ServiceError(f"Pairing game {number} failed: {job.error}")
    game = game_publish(game=Game.objects.get(event=event, number=number), user=director)
    tables = list(game.tables.order_by("number"))
    with transaction.atomic():  # one standings job for the whole game
        for table in tables:
            if report.rulings < rulings and rng.random() < 0.05:
                _ruling(table, judges, director, rng)
                report.rulings += 1
                continue
            disagree = rng.randrange(disagree_every) == 0
            report.disagreements += disagree
            _report_table(table, rng, disagree)
    game_close(game=game, user=director)
    for table in game.tables.filter(status=Table.Status.FLAGGED):
        _settle(table, director)
    report.games_played += 1


def _played_spread(rng: random.Random, target: int = 121) -> int:
    played = simulate_game(rng.randrange(1 << 30), target=target)
    return played.target - min(played.final_scores)


def _report_table(table: Table, rng: random.Random, disagree: bool) -> None:
    seats = list(table.seats.order_by("position"))
    # Each side reports from one phone: the player, or either partner of a doubles team
    # (positions 1 and 3 against 2 and 4).
    first, second = rng.choice(seats[0::2]), rng.choice(seats[1::2])
    winner, loser = (first, second) if rng.random() < 0.5 else (second, first)
    spread = _played_spread(rng)
    card_line_report(seat=winner, won=True, spread=spread)
    # A tired player copies the spread wrongly: the cards disagree, the cross-check settles it.
    written = spread + 2 if spread <= 119 else spread - 2
    card_line_report(seat=loser, won=False, spread=written if disagree else spread)


def _ruling(table: Table, judges: list, director, rng: random.Random) -> None:
    """A renege called mid-game, then the game played out and both cards agree."""
    first = table.seats.order_by("position").first()
    ruling_record(
        table=table, code="renege", offender_entry=first.entry, score_before_offender=70,
        score_before_opponent=64, judges=judges, entered_by=director, reneged_cards=1,
        notes="Simulated: a playable card was held back in the play.",
    )  # fmt: skip
    _report_table(table, rng, disagree=False)


def _settle(table: Table, director) -> None:
    try:
        table_cross_check(table=table, user=director)
    except ServiceError:
        # Rule 12.2 has no case for these cards: the director corrects from the winner's card.
        reported = current_lines(table=table, kind="reported")
        winner, line = next((s, v) for s, v in reported.items() if v.game_points > 0)
        cards = table.seats.filter(position__lte=2)  # a doubles table's teams' cards
        loser = next(seat.pk for seat in cards if seat.pk != winner)
        lines = {
            winner: EngineLine(line.game_points, line.plus, 0),
            loser: EngineLine(0, 0, line.plus),
        }
        table_correct(
            table=table, lines=lines, reason="Director's correction", user=director,
            source="director",
        )  # fmt: skip


def _play_playoffs(event: Event, director, rng: random.Random, report: SimulationReport) -> None:
    job = playoff_build_request(event=event, user=director)
    job.refresh_from_db()
    if job.status == Job.Status.FAILED:
        raise ServiceError(f"Building the bracket failed: {job.error}")
    for _ in range(10_000):  # bounded: a bracket of 1,024 has 1,023 matches of at most 7 games
        match = _next_match(event)
        if match is None:
            break
        a_wins = rng.random() < 0.5
        winner, loser = (match.entry_a, match.entry_b) if a_wins else (match.entry_b, match.entry_a)
        spread = _played_spread(rng)
        match_game_report(match=match, entry=winner, won=True, spread=spread)
        match_game_report(match=match, entry=loser, won=False, spread=spread)
        report.match_games += 1
    event.refresh_from_db()
    champion = Match.objects.filter(playoff__event=event).order_by("-round").first()
    if champion and champion.winner_id:
        report.champion = entrant_of(champion.winner).name  # a doubles team by its name


def _next_match(event: Event) -> Match | None:
    return (
        Match.objects.filter(
            playoff__event=event, status__in=[Match.Status.READY, Match.Status.PLAYING]
        )
        .select_related("entry_a", "entry_b")
        .order_by("round", "slot")
        .first()
    )
