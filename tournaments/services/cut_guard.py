"""Corrections after the cut: the bracket and the standings must always agree.

The bracket is built from the standings at the cut (``Playoff`` and its seeds). Every change to
qualifying results after that (a correction, a cross-check, a tie playoff) calls
``cut_guard_apply`` inside its own transaction, after writing its lines:

- if the cut state (``core.cut``) is unchanged, the change stands: the standings snapshot is
  stored at once and the seeds' qualifying ranks follow, so MRPs and the qualifier pool follow;
- if it changes who qualifies, a seed, the byes or the high non-qualifier, the change is refused
  (the transaction rolls back: nothing is stored) unless the director asked to rebuild the
  bracket, which is possible only while no playoff game has been reported and the Consolation,
  if there is one, has not started. A rebuild replaces the seeds and matches, brings the
  Consolation's field in line with the new cut, and tells the players who moved.
- a finalised event's MRP ledger is checked again by a job (``ledger``) after any change.
"""

from __future__ import annotations

from django.urls import reverse
from django.utils import timezone

from tournaments.core.cut import CutState, cut_change, cut_state, describe_cut_change
from tournaments.errors import Blocked, ServiceError
from tournaments.models import Entry, Event, MatchGame, Notice, Playoff
from tournaments.selectors import entrants
from tournaments.selectors.events import event_play_started
from tournaments.selectors.standings import standings_live
from tournaments.selectors.waiting import Blocker
from tournaments.services.consolation import consolation_of, consolation_sync_entries
from tournaments.services.ledger import ledger_refresh_request
from tournaments.services.playoffs import seeds_and_matches_create
from tournaments.services.ratings import ratings_request
from tournaments.services.standings import standings_snapshot_now


def _stored_state(playoff: Playoff) -> CutState:
    seeds = tuple(playoff.seeds.order_by("seed").values_list("entry_id", flat=True))
    return CutState(seeds, playoff.high_non_qualifier_id)


def playoff_rebuild_refusal(playoff: Playoff) -> str | None:
    """Why the bracket can no longer be rebuilt, or None while it can."""
    games = MatchGame.objects.filter(match__playoff=playoff).count()
    if games:
        return (
            f"{games} playoff game{'s are' if games > 1 else ' is'} already reported, so the "
            "bracket can no longer be rebuilt"
        )
    consolation = consolation_of(main_event=playoff.event)
    if consolation is not None and event_play_started(event=consolation):
        return f"{consolation.name} has started, so the bracket can no longer be rebuilt"
    return None


def cut_guard_apply(*, event: Event, rebuild: bool) -> bool:
    """Keep the bracket in line with the results just written (see the module); returns
    whether the bracket was rebuilt. Raises ServiceError to refuse the whole change."""
    playoff = Playoff.objects.select_for_update().filter(event=event).first()
    if playoff is None:
        return False
    event = Event.objects.select_for_update().get(pk=event.pk)
    standings = standings_live(event=event)
    before, after = _stored_state(playoff), cut_state(standings)
    change = cut_change(before, after)
    rebuilt = False
    if change:
        names = entrants.entry_names(entries=Entry.objects.filter(event=event))
        text = describe_cut_change(change, names)
        _refuse_or_allow(playoff, change, text, rebuild)
        _rebuild(playoff, standings)
        _notify(change, names)
        rebuilt = True
    else:
        _follow_ranks(playoff, standings)
    standings_snapshot_now(event=event)
    ledger_refresh_request(event=event, reason="a correction to the qualifying results")
    if event.rated_at is not None:
        ratings_request(event=event)
    return rebuilt


def _refuse_or_allow(playoff: Playoff, change, text: str, rebuild: bool) -> None:
    if change.tie:
        tie = Blocker(
            "Record the tie playoff between them first (it counts only once they are tied), "
            "then make this change again",
            reverse("tie-playoff", args=[playoff.event_id]),
        )
        raise Blocked(f"Refused: after this change {text}.", [tie], code="cut_tie")
    refusal = playoff_rebuild_refusal(playoff)
    if refusal:
        raise ServiceError(
            f"Refused: this change would alter the bracket ({text}), and {refusal}. The "
            "result stands as it is; a change that keeps the same qualifiers, seeds and high "
            "non-qualifier can still be made.",
            code="bracket_locked",
        )
    if not rebuild:
        raise ServiceError(
            f"This change alters the bracket: {text}. Nothing was saved. To apply it, confirm "
            "that the bracket is rebuilt from the corrected standings (possible until the "
            "first playoff game is reported).",
            field="rebuild_bracket",
            code="changes_bracket",
        )


def _rebuild(playoff: Playoff, standings) -> None:
    playoff.matches.all().delete()  # none has a game (checked): nothing reported is lost
    playoff.seeds.all().delete()
    playoff.high_non_qualifier_id = standings.high_non_qualifier
    playoff.rebuilt_at = timezone.now()
    playoff.save(update_fields=["high_non_qualifier", "rebuilt_at"])
    seeds_and_matches_create(playoff=playoff, standings=standings)
    consolation_sync_entries(main_event=playoff.event)


def _follow_ranks(playoff: Playoff, standings) -> None:
    """Same seeds, but a rank may now be shared (or no longer): the pool and MRPs read it."""
    rank_of = {row.entry_id: row.rank for row in standings.rows}
    for seed in playoff.seeds.all():
        if seed.qualifying_rank != rank_of[seed.entry_id]:
            seed.qualifying_rank = rank_of[seed.entry_id]
            seed.save(update_fields=["qualifying_rank"])


def _notify(change, names: dict[int, str]) -> None:
    """ACC Rule 12.2 case i: players whose qualification or seed a correction changed."""
    why = "A correction to the qualifying results rebuilt the playoff bracket."
    notices = [Notice(entry_id=e, message=f"{why} You now qualify.") for e in change.joined]
    notices += [Notice(entry_id=e, message=f"{why} You no longer qualify.") for e in change.left]
    notices += [
        Notice(entry_id=e, message=f"{why} Your seed is now {after} (was {before}).")
        for e, before, after in change.reseeded
    ]
    Notice.objects.bulk_create(notices)
