"""Judges' rulings in a playoff match game (see ``rulings`` for the rules they follow).

A ruling in a match applies to the match's current game (opened as a first report opens it).
When it ends the game, the engine's winner and lines settle the game through
``match_game_settle``, so the match score, the decision and the bracket move as for a
reported game. Each write holds the match row's lock.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tournaments.models import Match, MatchLine, Ruling
from tournaments.selectors.entrants import entrant_label
from tournaments.services.playoffs_corrections import match_game_settle
from tournaments.services.playoffs_matches import match_game_current
from tournaments.services.rulings import ruling_audit, ruling_check_and_save
from tournaments.services.rulings_outcome import RulingAsk


@transaction.atomic
def ruling_record_in_match(*, match: Match, **asked) -> Ruling:
    """Record a ruling in ``match``'s current game (opened if none is; ``asked``: the fields of
    ``RulingAsk``); when it ends the game,
    the engine's result settles the game and the match moves on as for reported games. All or
    nothing: a refused ruling leaves no trace, not even a new game."""
    ask = RulingAsk.of(**asked)
    match, game = match_game_current(match=match)  # holds the match row's lock from here
    outcome, ruling = ruling_check_and_save(
        where={"match": match}, place={"match_game": game}, event=match.playoff.event, ask=ask
    )
    match.judge_calls.filter(answered_at__isnull=True).update(
        answered_at=timezone.now(), answered_by=ask.entered_by
    )  # the judges came: the match's call is answered, as a table's is by its ruling
    if outcome.lines is not None:
        winner = outcome.winner
        loser = outcome.offender if winner is outcome.opponent else outcome.opponent
        won_line, lost_line = outcome.lines[winner.pk], outcome.lines[loser.pk]
        ruling.match_game = match_game_settle(
            match=match,
            game=game,
            winner_entry=winner.entry,
            spread=won_line.plus,
            reason=(
                f"Judges' ruling, {match} game {game.number}: "
                f"{outcome.infraction.name} by {entrant_label(outcome.offender.entry)}."
            ),
            user=ask.entered_by,
            source=MatchLine.Source.RULING,
            lines=(won_line, lost_line),
        )
    ruling_audit(
        ruling, outcome, where=f"{match}, game {game.number}", action="ruling_record_in_match"
    )
    return ruling
