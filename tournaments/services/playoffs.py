"""Building the playoffs after the qualifying round: the cut, the seeds and every match row.

- cut: made from the standings recomputed fresh from the verified lines, never a snapshot; a
  tie straddling the cut must be broken (a tie playoff) before the bracket can be built.
- bracket rows: one ``Match`` per match of every round, from the pure bracket
  (``tournaments.core.bracket``). Byes are decided at once and their winners are already on
  their round-2 lines; later rounds wait for their players.
- sync: after any match is decided (or, after a correction, no longer decided) the rows are
  brought in line with the pure bracket rebuilt from the results, so who plays whom next is
  decided in one place (the core).

Match play (reports, corrections, the no-show clock) is in ``playoffs_matches``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.core.bracket import Bracket, build_bracket, cut_for, rederive
from tournaments.core.playoff_lengths import best_of_for
from tournaments.errors import Blocked, ServiceError
from tournaments.models import (
    Entry,
    Event,
    Job,
    Match,
    MatchGame,
    Playoff,
    PlayoffSeed,
)
from tournaments.selectors.playoffs import qualifiers_from_rows, round_name
from tournaments.selectors.standings import standings_entrants, standings_live
from tournaments.selectors.waiting import cut_blockers, cut_tie_blocker
from tournaments.services.audit import Kind, audit_record
from tournaments.services.jobs import Progress, job_enqueue
from tournaments.services.ledger import ledger_refresh_request
from tournaments.services.ratings import ratings_request
from tournaments.services.standings import standings_snapshot_now


def best_of_for_round(*, event: Event, round: int, rounds: int) -> int:
    """Games in a match of ``round`` of ``rounds``: the event's lengths by name, from the final."""
    return best_of_for(event.playoff_best_of, round, rounds)


def _standings_for_cut(event: Event):
    blockers = cut_blockers(event=event)
    if blockers:
        raise Blocked("The bracket cannot be built yet:", blockers)
    standings = standings_live(event=event)
    if standings.cut_tie:
        tie = cut_tie_blocker(event=event, tied=standings.cut_tie)
        raise Blocked("The bracket cannot be built yet:", [tie], code="cut_tie")
    return standings


@transaction.atomic
def playoff_build_request(*, event: Event, user) -> Job:
    """Ask for the cut and the bracket (job kind "bracket"); refused at once if not ready."""
    if Playoff.objects.filter(event=event).exists():
        raise ServiceError("The bracket is already built.", code="already_built")
    standings = _standings_for_cut(event)
    job = job_enqueue(
        kind="bracket",
        key=f"event:{event.pk}",
        task="tournaments.tasks.build_playoff",
        created_by=user if user is not None and user.is_authenticated else None,
        join_running=True,
        event_id=event.pk,
    )
    qualifiers = sum(row.qualifies for row in standings.rows)
    audit_record(
        event=event,
        actor=user,
        kind=Kind.PLAYOFFS,
        action="playoff_build_request",
        summary=f"Cut made: {qualifiers} qualifiers; the bracket is being built",
        after={"qualifiers": [row.entry_id for row in standings.rows if row.qualifies]},
    )
    return job


@transaction.atomic
def playoff_build(
    *, event_id: int, progress: Progress | None = None, job: Job | None = None, user=None
) -> dict[str, Any]:
    """The job's work: the cut, the seeds and every match. Running it twice creates nothing."""
    event = Event.objects.select_for_update().get(pk=event_id)
    existing = Playoff.objects.filter(event=event).first()
    if existing:
        return {"created": False, "playoff": existing.pk, "qualifiers": existing.qualifiers}
    standings = _standings_for_cut(event)
    entrants = len(standings_entrants(event=event))
    cut = cut_for(entrants, event.qualifier_ratio)
    qualifiers = [row.entry_id for row in standings.rows if row.qualifies]
    if len(qualifiers) != cut.qualifiers:
        raise ServiceError(
            f"The standings give {len(qualifiers)} qualifiers, the cut {cut.qualifiers}.",
            code="cut_mismatch",
        )
    if progress:
        progress(30, f"{cut.qualifiers} qualifiers, {cut.lines} lines, {cut.byes} byes")
    playoff = Playoff.objects.create(
        event=event,
        entrants=entrants,
        qualifiers=cut.qualifiers,
        high_non_qualifier_id=standings.high_non_qualifier,
        job=job,
        created_by=user or (job.created_by if job else None),
    )
    bracket = seeds_and_matches_create(playoff=playoff, standings=standings)
    # The pages read the snapshot: it must show the standings the cut was made from.
    standings_snapshot_now(event=event, job=job)
    return {
        "created": True,
        "playoff": playoff.pk,
        "qualifiers": cut.qualifiers,
        "lines": cut.lines,
        "byes": cut.byes,
        "matches": sum(len(r) for r in bracket.matches),
    }


def seeds_and_matches_create(*, playoff: Playoff, standings) -> Bracket:
    """The seeds (qualifying rank order) and every match row; the event's stage follows."""
    qualifiers = [row.entry_id for row in standings.rows if row.qualifies]
    rank_of = {row.entry_id: row.rank for row in standings.rows}
    PlayoffSeed.objects.bulk_create(
        PlayoffSeed(playoff=playoff, seed=seed, entry_id=entry, qualifying_rank=rank_of[entry])
        for seed, entry in enumerate(qualifiers, start=1)
    )
    bracket = build_bracket(qualifiers)
    _create_matches(playoff, bracket)
    event = playoff.event
    event.stage = Event.Stage.FINISHED if not bracket.matches else Event.Stage.PLAYOFFS
    event.save(update_fields=["stage"])
    return bracket


def _status_of(match) -> str:
    if match.winner is not None:
        return Match.Status.DECIDED
    return Match.Status.READY if match.ready else Match.Status.WAITING


def _create_matches(playoff: Playoff, bracket: Bracket) -> None:
    now = timezone.now()
    rows = []
    for matches in bracket.matches:
        best_of = best_of_for_round(
            event=playoff.event, round=matches[0].round, rounds=len(bracket.matches)
        )
        for m in matches:
            rows.append(
                Match(
                    playoff=playoff,
                    round=m.round,
                    slot=m.slot,
                    best_of=best_of,
                    seed_a=m.seed_a,
                    seed_b=m.seed_b,
                    entry_a_id=m.player_a,
                    entry_b_id=m.player_b,
                    bye=m.bye,
                    status=_status_of(m),
                    winner_id=m.winner,
                    decided_at=now if m.winner is not None else None,
                )
            )
    Match.objects.bulk_create(rows)


def playoff_sync(*, playoff: Playoff) -> int | None:
    """Bring the later rounds' rows in line with the pure bracket rebuilt from the decided
    matches; returns the champion, if the final is decided (the event's stage follows).

    After a correction a later match may get different players. That is refused, as a whole,
    when the match already has games: what was played there depended on the old result."""
    playoff = Playoff.objects.select_for_update().select_related("event").get(pk=playoff.pk)
    rows = {(m.round, m.slot): m for m in playoff.matches.all()}
    results = {
        key: m.winner_id
        for key, m in rows.items()
        if m.status == Match.Status.DECIDED and not m.bye
    }
    bracket, _ = rederive(qualifiers_from_rows(rows.values()), results)
    with_games = set(  # a void game counts for nobody: voiding frees its match
        MatchGame.objects.filter(match__playoff=playoff)
        .exclude(status=MatchGame.Status.VOID)
        .values_list("match_id", flat=True)
    )
    for matches in bracket.matches[1:]:
        for m in matches:
            row = rows[(m.round, m.slot)]
            known = (row.entry_a_id, row.entry_b_id, row.seed_a, row.seed_b)
            if known == (m.player_a, m.player_b, m.seed_a, m.seed_b):
                continue
            if row.pk in with_games:  # its players change under games already played
                raise ServiceError(_dependent_refusal(row, bracket.rounds), code="depends")
            row.entry_a_id, row.entry_b_id = m.player_a, m.player_b
            row.seed_a, row.seed_b = m.seed_a, m.seed_b
            row.status = Match.Status.READY if m.ready else Match.Status.WAITING
            row.absent_id = row.clock_started_at = None
            fields = ["entry_a", "entry_b", "seed_a", "seed_b", "status"]
            row.save(update_fields=[*fields, "absent", "clock_started_at"])
    _follow_champion(playoff.event, bracket.champion, has_matches=bool(bracket.matches))
    ledger_refresh_request(event=playoff.event, reason="a correction in the playoffs")
    if bracket.champion is not None or playoff.event.rated_at is not None:
        ratings_request(event=playoff.event)
    return bracket.champion


def _dependent_refusal(row: Match, rounds: int) -> str:
    players = " v ".join(
        e.name
        for e in Entry.objects.select_related("player").filter(
            pk__in=[row.entry_a_id, row.entry_b_id]
        )
    )
    name = round_name(row.round, rounds)
    return (
        f"Refused: this change would alter who plays in the {name.lower()}, match "
        f"{row.slot + 1} ({players}), which already has games reported. Correct or void the "
        "games of that match first, then make this change."
    )


def _follow_champion(event: Event, champion: int | None, *, has_matches: bool) -> None:
    stage = Event.Stage.FINISHED if champion is not None else Event.Stage.PLAYOFFS
    if has_matches and event.stage != stage:
        event.stage = stage
        event.save(update_fields=["stage"])
