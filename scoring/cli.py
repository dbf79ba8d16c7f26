"""Command line for the rules engine: ``python -m scoring <command> ...``.

Commands:
- ``show``: count a hand or crib with the starter and say it aloud.
- ``play``: check and score a whole play (pegging), card by card: two players (``--pone``,
  ``--dealer``) or 2, 3 or 4 seats (``--seat`` once per hand, in the order of play: the seat
  left of the dealer first, the dealer last).
- ``line``: explain whether a card line (win or loss, spread, game points) is valid.
- ``simulate``: play a seeded computer game and print it deal by deal (``--style`` for
  three-handed, four-handed or Canadian Doubles).

Bad input exits with status 2 and one line on standard error, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from scoring.cards import CardError, format_cards
from scoring.deal import DEFAULT_TARGET
from scoring.hand import score_hand
from scoring.pegging import score_pegging, seat_names
from scoring.play import IllegalPlay, score_play
from scoring.simulate import SimulatedGame, simulate_game
from scoring.simulate_table import SimulatedTableGame, simulate_table_game
from scoring.table_deal import STYLES

USAGE_ERROR = 2


class _Parser(argparse.ArgumentParser):
    """argparse that reports bad usage as one line, like every other error here."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(USAGE_ERROR, f"{self.prog}: error: {message}\n")


def _show(args: argparse.Namespace) -> str:
    score = score_hand(args.cards, args.starter, crib=args.crib)
    if args.json:
        return json.dumps(
            {
                "hand": [str(card) for card in score.hand],
                "starter": str(score.starter),
                "crib": score.crib,
                "total": score.total,
                "fifteens": score.fifteens,
                "pairs": score.pairs,
                "runs": score.runs,
                "flush": score.flush,
                "nobs": score.nobs,
                "combinations": [
                    {"kind": c.kind, "cards": [str(card) for card in c.cards], "points": c.points}
                    for c in score.combinations
                ],
                "spoken": score.spoken(),
            },
            ensure_ascii=False,
        )
    return f"{score.spoken()}\ntotal: {score.total}"


def _play(args: argparse.Namespace) -> str:
    if args.seat or not (args.pone and args.dealer):
        if args.pone or args.dealer or not args.seat:
            raise ValueError("give either --pone and --dealer, or --seat once per hand (2 to 4)")
        return _play_seats(args.seat, args.plays)
    result = score_play(args.pone, args.dealer, args.plays)
    lines = []
    for laid in result.plays:
        why = f" ({', '.join(laid.reasons)})" if laid.reasons else ""
        lines.append(
            f"{laid.player:<6} {laid.card!s:>3}  count {laid.count:>2}  {laid.points}{why}"
        )
    lines.append(f"pone pegs {result.pone_points}, dealer pegs {result.dealer_points}")
    return "\n".join(lines)


def _play_seats(hands: list[list[str]], plays: list[str]) -> str:
    result = score_pegging(hands, plays)
    lines = []
    for laid in result.plays:
        why = f" ({', '.join(laid.reasons)})" if laid.reasons else ""
        lines.append(
            f"{laid.player:<6} {laid.card!s:>3}  count {laid.count:>2}  {laid.points}{why}"
        )
    names = seat_names(len(result.points))
    pegs = ", ".join(
        f"{name} pegs {points}" for name, points in zip(names, result.points, strict=True)
    )
    lines.append(pegs)
    if len(result.points) == 4:
        first, second = result.team_points()
        lines.append(f"partners: seats 0 and 2 peg {first}, seats 1 and 3 peg {second}")
    return "\n".join(lines)


def _line(args: argparse.Namespace) -> str:
    # Imported here: the card-line rules live in scoring.games, which this command only uses.
    from scoring.games import describe_card_line

    return describe_card_line(won=args.won, spread=args.by, game_points=args.gp)


def describe_game(game: SimulatedGame) -> str:
    """A simulated game deal by deal, in players' words."""
    lines = [f"seed {game.seed}, game to {game.target}; player {game.first_dealer + 1} deals first"]
    for number, (deal, result) in enumerate(zip(game.deals, game.results, strict=True)):
        dealer = game.dealer_of(number) + 1
        lines.append(
            f"deal {number + 1}: player {dealer} deals; starter {deal.starter}; "
            f"pone keeps {format_cards(deal.kept('pone'))}, "
            f"dealer keeps {format_cards(deal.kept('dealer'))}, crib {format_cards(deal.crib)}"
        )
        lines.append(f"  play: {format_cards(deal.plays)}")
        for event in result.events:
            detail = f"{event.detail}: {event.show.spoken()}" if event.show else event.detail
            lines.append(
                f"  {event.player} {event.source}: {event.points} ({detail}) -> "
                f"dealer {event.dealer_score}, pone {event.pone_score}"
            )
    first, second = game.final_scores
    lines.append(f"player {game.winner + 1} wins {first}-{second}")
    return "\n".join(lines)


def describe_table_game(game: SimulatedTableGame) -> str:
    """A simulated three- or four-player game deal by deal, in players' words."""
    style = game.style.replace("_", "-")
    teams = " (players 1 and 3 against 2 and 4)" if game.players == 4 else ""
    lines = [
        f"seed {game.seed}, {style} game to {game.target}{teams}; "
        f"player {game.first_dealer + 1} deals first"
    ]
    for number, (deal, result) in enumerate(zip(game.deals, game.results, strict=True)):
        held = ", ".join(
            f"player {game.player_at(number, seat) + 1} keeps {format_cards(deal.held(seat))}"
            for seat in range(game.players)
        )
        lines.append(
            f"deal {number + 1}: player {game.dealer_of(number) + 1} deals; "
            f"starter {deal.starter}; {held}; crib {format_cards(deal.crib)}"
        )
        lines.append(f"  play: {format_cards(deal.plays)}")
        for event in result.events:
            who = game.player_at(number, event.seat) + 1
            detail = f"{event.detail}: {event.show.spoken()}" if event.show else event.detail
            lines.append(f"  player {who} {event.source}: {event.points} ({detail})")
    if game.players == 4:
        names = ["players 1 and 3", "players 2 and 4"]
    else:
        names = [f"player {p + 1}" for p in range(3)]
    scores = "-".join(str(score) for score in game.final_scores)
    lines.append(f"{names[game.winner]} win{'s' if game.players == 3 else ''} {scores}")
    return "\n".join(lines)


def _simulate(args: argparse.Namespace) -> str:
    if args.style != "two_handed":
        return describe_table_game(
            simulate_table_game(args.seed, style=args.style, target=args.target)
        )
    return describe_game(simulate_game(args.seed, target=args.target))


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m scoring", description="Cribbage rules engine.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    show = commands.add_parser("show", help="count a hand or crib with the starter")
    show.add_argument("cards", nargs="+", help="the four cards, e.g. 5H 5D 5S JC")
    show.add_argument("--starter", required=True, help="the starter (cut card), e.g. 5C")
    show.add_argument("--crib", action="store_true", help="count as the crib (5-card flush only)")
    show.add_argument("--json", action="store_true", help="print the breakdown as JSON")
    show.set_defaults(run=_show)

    play = commands.add_parser("play", help="check and score the play (pegging)")
    play.add_argument("--pone", nargs="+", help="pone's four cards")
    play.add_argument("--dealer", nargs="+", help="dealer's four cards")
    play.add_argument(
        "--seat",
        nargs="+",
        action="append",
        help="one seat's four cards; once per seat, left of the dealer first, dealer last",
    )
    play.add_argument("--plays", nargs="+", required=True, help="every card in order laid")
    play.set_defaults(run=_play)

    line = commands.add_parser("line", help="explain a card line (win/loss, spread, game points)")
    result = line.add_mutually_exclusive_group(required=True)
    result.add_argument("--won", action="store_true", help="the player won the game")
    result.add_argument("--lost", action="store_true", help="the player lost the game")
    line.add_argument("--by", type=int, required=True, help="the spread (margin), e.g. 35")
    line.add_argument("--gp", type=int, default=None, help="game points written on the card")
    line.set_defaults(run=_line)

    simulate = commands.add_parser("simulate", help="play a seeded computer game")
    simulate.add_argument("--seed", type=int, required=True, help="random seed (an integer)")
    simulate.add_argument("--target", type=int, default=DEFAULT_TARGET, help="game target")
    simulate.add_argument(
        "--style",
        choices=("two_handed", *STYLES),
        default="two_handed",
        help="two players (the default), three_handed, four_handed or canadian_doubles",
    )
    simulate.set_defaults(run=_simulate)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        output = args.run(args)
    except (CardError, IllegalPlay, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return USAGE_ERROR
    print(output)
    return 0
