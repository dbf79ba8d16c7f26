"""Safeguards around results: nothing saved against the wrong game, verified results changed
only by a director, started games not re-paired, settings re-checked, notices shown once."""

from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.games import CardLine as EngineLine
from tests.factories import EntryFactory, UserFactory
from tournaments.errors import ServiceError
from tournaments.models import CardLine, EventRole, Game, Notice, Table
from tournaments.services.corrections import table_correct, tie_playoff_record
from tournaments.services.events import event_update_settings
from tournaments.services.results import card_line_report, game_close

pytestmark = pytest.mark.django_db


def _first_table(event):
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    return table, *table.seats.order_by("position")


def test_a_report_for_a_game_that_is_no_longer_current_is_refused(event_in_play):
    event = event_in_play(10)
    _, a, _ = _first_table(event)
    with pytest.raises(ServiceError, match="has been posted since") as refused:
        card_line_report(seat=a, won=True, spread=12, game_number=0)
    assert refused.value.field == "game"
    card_line_report(seat=a, won=True, spread=12, game_number=1)
    assert CardLine.objects.filter(seat=a).count() == 1


def test_players_cannot_override_a_correction_on_a_flagged_table(event_in_play):
    event = event_in_play(10)
    table, a, b = _first_table(event)
    table_correct(
        table=table,
        lines={a.pk: EngineLine(3, 40, 0)},
        reason="From the paper card",
        user=event.director,
        source="director",
    )
    table.refresh_from_db()
    assert table.status == Table.Status.FLAGGED
    with pytest.raises(ServiceError, match="with the cross-checker"):
        card_line_report(seat=b, won=True, spread=5)


def test_only_a_director_changes_a_verified_result(event_in_play):
    event = event_in_play(10)
    table, a, b = _first_table(event)
    card_line_report(seat=a, won=True, spread=5)
    card_line_report(seat=b, won=False, spread=5)
    checker = UserFactory()
    EventRole.objects.create(event=event, user=checker, role="cross_checker")
    lines = {a.pk: EngineLine(0, 0, 60), b.pk: EngineLine(3, 60, 0)}
    with pytest.raises(ServiceError, match="only a director"):
        table_correct(table=table, lines=lines, reason="Swap", user=checker)
    table_correct(table=table, lines=lines, reason="Swap", user=event.director, source="director")
    assert CardLine.objects.get(seat=a, kind="verified", current=True).minus == 60


def test_a_tie_playoff_is_between_players_of_the_qualifying_round(event_in_play):
    event = event_in_play(10)
    _, a, _ = _first_table(event)
    never_played = EntryFactory(event=event, status="registered")
    with pytest.raises(ServiceError, match="qualifying round"):
        tie_playoff_record(event=event, winner=a.entry, loser=never_played, user=event.director)


def test_a_game_with_a_judge_call_cannot_be_re_paired(event_in_play):
    from tournaments.services.judge_calls import judge_call_create
    from tournaments.services.pairings import game_repair

    event = event_in_play(10)
    table, a, _ = _first_table(event)
    judge_call_create(table=table, entry=a.entry)
    with pytest.raises(ServiceError, match="has started"):
        game_repair(game=Game.objects.get(event=event, number=1), user=event.director)


def test_settings_changed_after_registration_are_checked_again(event_in_play):
    event = event_in_play(4, qualifying_games=3)
    Game.objects.filter(event=event).delete()  # before play: settings may still change
    with pytest.raises(ServiceError, match="need at least"):
        event_update_settings(event=event, user=event.director, qualifying_games=9)
    with pytest.raises(ServiceError, match="sit-out result"):
        event_update_settings(event=event, user=event.director, sit_out_spread=0)


def test_a_withdrawal_before_a_draft_is_published_leaves_that_game(
    event_in_play, django_capture_on_commit_callbacks
):
    from tournaments.services.pairings import game_pairings_request, game_repair
    from tournaments.services.withdrawals import entry_withdraw

    event = event_in_play(10)
    game_close(game=Game.objects.get(event=event, number=1), user=event.director)
    with django_capture_on_commit_callbacks(execute=True):
        game_pairings_request(event=event, number=2, user=event.director)
    leaver = event.entries.first()
    entry_withdraw(entry=leaver, user=event.director)
    with django_capture_on_commit_callbacks(execute=True):
        game_repair(game=Game.objects.get(event=event, number=2), user=event.director)
    leaver.refresh_from_db()
    assert leaver.withdrawn_after_game == 1
    seated = Game.objects.get(event=event, number=2).seats.values_list("entry_id", flat=True)
    assert leaver.pk not in seated and len(seated) == 9


def test_notices_are_marked_seen_and_age_out(client, event_in_play):
    event = event_in_play(10)
    _, a, _ = _first_table(event)
    notice = Notice.objects.create(entry=a.entry, message="Please report game 1")
    url = f"/r/{a.entry.report_token}/"
    assert "Please report game 1" in client.get(url).content.decode()
    notice.refresh_from_db()
    assert notice.seen_at is not None
    assert "Please report game 1" in client.get(url).content.decode()  # still there a while
    Notice.objects.filter(pk=notice.pk).update(created_at=timezone.now() - timedelta(minutes=31))
    assert "Please report game 1" not in client.get(url).content.decode()
