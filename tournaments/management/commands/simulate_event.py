"""``manage.py simulate_event``: a whole weekend played through the real services and jobs."""

from django.core.management.base import BaseCommand, CommandError

from tournaments.demo import demo_director
from tournaments.errors import ServiceError
from tournaments.models import Event
from tournaments.services.simulation import event_simulate


class Command(BaseCommand):
    help = (
        "Simulate an event: pairings, both players' card lines (games played by the engine's "
        "simulator, a few cards disagreeing, a few rulings), cross-checks, standings, the cut, "
        "the bracket and the playoffs."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True, help="entrants (2 or more)")
        parser.add_argument("--games", type=int, required=True, help="qualifying games")
        parser.add_argument("--seed", type=int, default=1, help="random seed (reproducible)")
        parser.add_argument("--name", help="event name (default: Simulated weekend <seed>)")
        parser.add_argument(
            "--stop-after-game", type=int, help="leave the event in progress after this game"
        )
        parser.add_argument(
            "--style",
            choices=[style.value for style in Event.Style],
            default=Event.Style.SINGLES.value,
            help="doubles or canadian_doubles: --players players in teams of two (a doubles "
            "satellite: no Master Rating Points)",
        )

    def handle(self, *args, **options):
        if options["players"] < 2 or options["games"] < 1:
            raise CommandError("--players must be at least 2 and --games at least 1.")
        in_teams = options["style"] != Event.Style.SINGLES
        if in_teams and (options["players"] < 4 or options["players"] % 2):
            raise CommandError("A doubles event needs an even number of players, 4 or more.")
        director, _ = demo_director()
        try:
            report = event_simulate(
                players=options["players"],
                games=options["games"],
                seed=options["seed"],
                director=director,
                name=options["name"],
                stop_after_game=options["stop_after_game"],
                style=options["style"],
            )
        except ServiceError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(
            f"{report.event.name}: {report.games_played} qualifying games, "
            f"{report.disagreements} disagreeing cards, {report.rulings} rulings, "
            f"{report.match_games} playoff games; champion: {report.champion or 'not yet'}."
        )
