"""Card lines: validated by the engine, verified when the cards agree, flagged and settled by
Rule 12.2 when they do not, corrected with an audit trail; standings follow."""

import pytest

from scoring.games import CardLine as EngineLine
from tournaments.errors import ServiceError
from tournaments.models import CardLine, Game, Notice, StandingsSnapshot, Table
from tournaments.services.corrections import table_correct, table_cross_check
from tournaments.services.results import card_line_report, game_close

pytestmark = pytest.mark.django_db


def _table(event, number=1):
    table = Table.objects.get(game__event=event, game__number=1, number=number)
    first, second = table.seats.order_by("position")
    return table, first, second


def test_reciprocal_lines_verify_the_game_and_update_standings(
    event_in_play, django_capture_on_commit_callbacks
):
    event = event_in_play(10)
    table, a, b = _table(event)
    card_line_report(seat=a, won=True, spread=35)
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    with django_capture_on_commit_callbacks(execute=True):
        card_line_report(seat=b, won=False, spread=35)
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED
    verified = CardLine.objects.filter(seat__table=table, kind="verified", current=True)
    assert sorted((line.game_points, line.plus, line.minus) for line in verified) == [
        (0, 0, 35),
        (3, 35, 0),
    ]
    snapshot = StandingsSnapshot.objects.filter(event=event).latest()
    top = snapshot.rows[0]
    assert (top["entry_id"], top["game_points"], top["net_spread"]) == (a.entry_id, 3, 35)


def test_impossible_lines_are_refused_and_never_stored(event_in_play):
    event = event_in_play(10)
    _, a, _ = _table(event)
    with pytest.raises(ServiceError) as refused:
        card_line_report(seat=a, won=True, spread=122)
    assert refused.value.field == "margin"
    assert not CardLine.objects.exists()


def test_a_player_may_correct_their_report_until_the_game_is_verified(event_in_play):
    event = event_in_play(10)
    table, a, b = _table(event)
    card_line_report(seat=a, won=True, spread=20)
    card_line_report(seat=a, won=True, spread=12)
    reports = CardLine.objects.filter(seat=a, kind="reported")
    assert [(line.plus, line.current) for line in reports] == [(20, False), (12, True)]
    card_line_report(seat=b, won=False, spread=12)
    with pytest.raises(ServiceError, match="already verified"):
        card_line_report(seat=b, won=False, spread=13)


def test_closing_flags_disagreements_and_rule_12_2_settles_them(
    event_in_play, django_capture_on_commit_callbacks
):
    event = event_in_play(10)
    table, a, b = _table(event)
    card_line_report(seat=a, won=True, spread=20)
    card_line_report(seat=b, won=True, spread=25)  # both claim the win: case d or e
    game = Game.objects.get(event=event, number=1)
    assert game_close(game=game, user=event.director) == 5  # the other four tables never reported
    table.refresh_from_db()
    assert table.status == Table.Status.FLAGGED
    with pytest.raises(ServiceError, match="closed"):
        card_line_report(seat=a, won=True, spread=21)
    with django_capture_on_commit_callbacks(execute=True):
        cases = table_cross_check(table=table, user=event.director)
    assert cases[0] == "e" and cases[-1] == "g"
    table.refresh_from_db()
    assert table.status == Table.Status.VERIFIED
    lines = {
        line.seat_id: line
        for line in CardLine.objects.filter(seat__table=table, kind="verified", current=True)
    }
    assert lines[a.pk].game_points == 0 and lines[b.pk].game_points == 0
    # What each player wrote comes first, then each case; never cut short (issue 22 item 6).
    names = (a.entry.player.name, b.entry.player.name)
    reason = lines[a.pk].reason
    assert reason.startswith(
        f"ACC Rule 12.2. {names[0]} wrote a win by 20; {names[1]} wrote a win by 25. Case e: "
    )
    assert reason.endswith(".") and "Case g: Re-totalled:" in reason


def test_a_correction_keeps_the_old_line_and_notifies_cut_changes(
    event_in_play, django_capture_on_commit_callbacks
):
    event = event_in_play(8, qualifying_games=5, qualifier_ratio=4)  # 2 qualifiers
    tables = Table.objects.filter(game__event=event).order_by("number")
    with django_capture_on_commit_callbacks(execute=True):
        for i, table in enumerate(tables):
            a, b = table.seats.order_by("position")
            card_line_report(seat=a, won=True, spread=10 + i)
            card_line_report(seat=b, won=False, spread=10 + i)
    first = tables[0]
    a, b = first.seats.order_by("position")
    table_correct(
        table=first,
        lines={a.pk: EngineLine(0, 0, 40), b.pk: EngineLine(3, 40, 0)},
        reason="Cards were swapped at the table; both players agree.",
        user=event.director,
    )
    history = CardLine.objects.filter(seat=a, kind="verified").order_by("id")
    assert [(line.game_points, line.current) for line in history] == [(2, False), (0, True)]
    assert history.last().reason.startswith("Cards were swapped")
    assert Notice.objects.filter(entry_id=b.entry_id, message__contains="above the cut").exists()
    # Before: the winners by 13 and 12 (tables 4 and 3) were the two qualifiers.
    pushed_out = tables[2].seats.get(position=1).entry_id
    assert Notice.objects.filter(entry_id=pushed_out, message__contains="below the cut").exists()
    assert Notice.objects.count() == 2


def test_the_sit_out_gets_the_event_result_when_the_game_is_published(event_in_play):
    event = event_in_play(9)
    sit_out = CardLine.objects.get(seat__game__event=event, seat__table__isnull=True)
    assert (sit_out.kind, sit_out.game_points, sit_out.plus, sit_out.source) == (
        "verified",
        2,
        10,
        "sit_out",
    )


def test_standings_pairing_puts_players_with_similar_records_together(
    event_in_play, django_capture_on_commit_callbacks
):
    from tournaments.models import Event, Game
    from tournaments.services.pairings import game_pairings_request

    event = event_in_play(8, qualifying_games=5, pairing_mode="standings")
    for table in Table.objects.filter(game__event=event):
        a, b = table.seats.order_by("position")
        card_line_report(seat=a, won=True, spread=10)
        card_line_report(seat=b, won=False, spread=10)
    winners = set(
        CardLine.objects.filter(
            seat__game__event=event, kind="verified", game_points=2
        ).values_list("seat__entry_id", flat=True)
    )
    game_close(game=Game.objects.get(event=event, number=1), user=event.director)
    with django_capture_on_commit_callbacks(execute=True):
        game_pairings_request(event=Event.objects.get(pk=event.pk), number=2, user=event.director)
    for table in Table.objects.filter(game__event=event, game__number=2):
        pair = set(table.seats.values_list("entry_id", flat=True))
        assert pair <= winners or not pair & winners, "winners meet winners in game 2"


def test_a_game_with_reported_results_cannot_be_re_paired(event_in_play):
    from tournaments.services.pairings import game_repair

    event = event_in_play(10)
    game = Game.objects.get(event=event, number=1)
    _, a, _ = _table(event)
    card_line_report(seat=a, won=True, spread=12)
    with pytest.raises(ServiceError, match="has started"):
        game_repair(game=game, user=event.director)
    assert CardLine.objects.filter(seat=a).count() == 1
