"""Celery tasks: take ids, call one service. State is recorded in the ``Job`` row."""

from celery import shared_task
from celery.signals import worker_ready

from tournaments.services.account_links import account_link_code_send
from tournaments.services.jobs import health_check_work, job_run, jobs_sweep
from tournaments.services.ledger import event_finalise, ledger_rebuild
from tournaments.services.night_cards import night_cards_rebuild_all
from tournaments.services.pairings import game_pairings_generate
from tournaments.services.playoffs import playoff_build
from tournaments.services.playoffs_matches import playoff_forfeits_apply_all
from tournaments.services.ratings import ratings_recompute_all, ratings_update_event
from tournaments.services.standings import standings_recompute
from tournaments.services.table_emails import table_emails_send
from tournaments.services.waitlist import waitlist_sweep as waitlist_sweep_all


@shared_task(name="tournaments.tasks.health_check")
def health_check(*, job_id: int) -> None:
    job_run(job_id=job_id, work=health_check_work)


@shared_task(name="tournaments.tasks.jobs_sweep")
def sweep_jobs() -> dict[str, int]:
    """Periodic (beat): send waiting jobs, take back running jobs whose worker stopped."""
    return jobs_sweep()


@worker_ready.connect
def sweep_when_a_worker_starts(sender, **kwargs) -> None:
    """A worker that starts (perhaps after one was killed) asks for a sweep at once."""
    sender.app.send_task("tournaments.tasks.jobs_sweep")


@shared_task(name="tournaments.tasks.pair_game")
def pair_game(*, job_id: int, event_id: int, number: int) -> None:
    job_run(
        job_id=job_id,
        work=lambda job, progress: game_pairings_generate(
            event_id=event_id, number=number, progress=progress
        ),
    )


@shared_task(name="tournaments.tasks.recompute_standings")
def recompute_standings(*, job_id: int, event_id: int) -> None:
    job_run(
        job_id=job_id,
        work=lambda job, progress: standings_recompute(
            event_id=event_id, job=job, progress=progress
        ),
    )


@shared_task(name="tournaments.tasks.build_playoff")
def build_playoff(*, job_id: int, event_id: int) -> None:
    job_run(
        job_id=job_id,
        work=lambda job, progress: playoff_build(event_id=event_id, progress=progress, job=job),
    )


@shared_task(name="tournaments.tasks.apply_playoff_forfeits")
def apply_playoff_forfeits() -> int:
    """Periodic (beat): record the games forfeited on every running no-show clock."""
    return playoff_forfeits_apply_all()


@shared_task(name="tournaments.tasks.waitlist_sweep")
def waitlist_sweep() -> int:
    """Periodic (beat): lapse overdue waitlist offers and offer the places they free."""
    return waitlist_sweep_all()


@shared_task(name="tournaments.tasks.finalise_event")
def finalise_event(*, job_id: int, event_id: int, reason: str, finalise: bool = False) -> None:
    job_run(
        job_id=job_id,
        work=lambda job, progress: event_finalise(
            event_id=event_id, reason=reason, finalise=finalise, job=job, progress=progress
        ),
    )


@shared_task(name="tournaments.tasks.rebuild_ledger")
def rebuild_ledger(*, job_id: int) -> None:
    job_run(job_id=job_id, work=lambda job, progress: ledger_rebuild(progress=progress, job=job))


@shared_task(name="tournaments.tasks.rate_event")
def rate_event(*, job_id: int, event_id: int) -> None:
    job_run(job_id=job_id, work=lambda job, progress: ratings_update_event(event_id=event_id))


@shared_task(name="tournaments.tasks.rate_all")
def rate_all(*, job_id: int) -> None:
    job_run(job_id=job_id, work=lambda job, progress: ratings_recompute_all(progress=progress))


@shared_task(name="tournaments.tasks.rebuild_night_cards")
def rebuild_night_cards(*, job_id: int) -> None:
    job_run(job_id=job_id, work=lambda job, progress: night_cards_rebuild_all(progress=progress))


@shared_task(name="tournaments.tasks.send_table_emails")
def send_table_emails(*, job_id: int, event_id: int, number: int) -> None:
    job_run(
        job_id=job_id,
        work=lambda job, progress: table_emails_send(
            event_id=event_id, number=number, progress=progress
        ),
    )


@shared_task(name="tournaments.tasks.send_consolation_links")
def send_consolation_links(*, job_id: int, event_id: int) -> None:
    from tournaments.services.consolation_emails import consolation_links_send

    job_run(
        job_id=job_id,
        work=lambda job, progress: consolation_links_send(event_id=event_id, progress=progress),
    )


@shared_task(name="tournaments.tasks.send_account_link_code")
def send_account_link_code(*, job_id: int, link_id: int) -> None:
    job_run(job_id=job_id, work=lambda job, progress: account_link_code_send(link_id=link_id))
