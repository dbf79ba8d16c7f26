"""Rulings through the service: each family of the catalogue moves the board as the engine says;
a ruling that ends the game becomes verified card lines; judges are checked; refusals name the
field and leave nothing behind."""

from __future__ import annotations

import pytest

from tests.factories import EventFactory, UserFactory
from tests.tournaments.rulings.conftest import make_judge
from tournaments.errors import ServiceError
from tournaments.models import CardLine, EventRole, JudgeCall, Ruling, Table
from tournaments.services.judge_calls import judge_call_answer, judge_call_create
from tournaments.services.rulings import ruling_record

pytestmark = pytest.mark.django_db


def verified(setup) -> dict[int, tuple[int, int, int]]:
    lines = CardLine.objects.filter(seat__table=setup.table, kind="verified", current=True)
    return {line.seat_id: (line.game_points, line.plus, line.minus) for line in lines}


def board(ruling: Ruling) -> tuple[int, int, int, int]:
    return (
        ruling.score_before_offender,
        ruling.score_before_opponent,
        ruling.score_after_offender,
        ruling.score_after_opponent,
    )


def refused(setup, code: str, **kwargs) -> ServiceError:
    with pytest.raises(ServiceError) as error:
        setup.record(code, **kwargs)
    assert not Ruling.objects.exists(), "a refused ruling was saved"
    assert not CardLine.objects.exists(), "a refused ruling changed the card lines"
    return error.value


def test_false_claim_that_hands_the_opponent_the_game_verifies_the_lines(setup):
    # A pegged into the game hole on 100; B on 115 pegs the 21 over-claimed points and wins;
    # A then pegs 15 back to 85: B wins by 36, a skunk.
    ruling = setup.record("false_claim_of_game", before=(121, 115), true_score=100)
    assert board(ruling) == (121, 115, 85, 121)
    assert ruling.game_over and ruling.winner == setup.b.entry
    assert ruling.beneficiary == setup.b.entry and ruling.offender == setup.a.entry
    assert verified(setup) == {setup.a.pk: (0, 0, 36), setup.b.pk: (3, 36, 0)}
    line = CardLine.objects.get(seat=setup.b, kind="verified", current=True)
    assert line.source == CardLine.Source.RULING
    assert line.entered_by == setup.director
    assert "False claim of game" in line.reason and setup.a.entry.player.name in line.reason
    setup.table.refresh_from_db()
    assert setup.table.status == Table.Status.VERIFIED
    assert (ruling.direction, ruling.points) == ("backward", 15)
    assert ruling.rulebook_edition == setup.event.rulebook_edition != ""


def test_false_claim_short_of_the_game_leaves_play_going(setup):
    ruling = setup.record("false_claim_of_game", before=(121, 60), true_score=100)
    assert board(ruling) == (121, 60, 85, 81)
    assert not ruling.game_over and ruling.winner is None
    assert verified(setup) == {}
    setup.table.refresh_from_db()
    assert setup.table.status == Table.Status.OPEN


def test_overpeg_goes_back_to_the_true_score_and_the_opponent_pegs_the_difference(setup):
    ruling = setup.record("overpeg", offender="b", before=(50, 40), true_score=45)
    assert board(ruling) == (50, 40, 45, 45)
    assert ruling.offender == setup.b.entry and ruling.beneficiary == setup.a.entry
    assert ruling.true_score == 45 and ruling.points is None


def test_renege_gives_two_per_card_to_the_opponent(setup):
    ruling = setup.record("renege", before=(70, 30), reneged_cards=2)
    assert board(ruling) == (70, 30, 70, 34)
    assert (ruling.reneged_cards, ruling.points) == (2, 2)


def test_muggins_only_where_the_event_has_it(judged):
    off = judged()
    error = refused(off, "muggins", before=(40, 50), claimed_missed=4, true_missed=2)
    assert (error.field, error.code) == ("code", "muggins_not_in_effect")

    on = judged(muggins=True)
    ruling = on.record("muggins", before=(40, 50), claimed_missed=4, true_missed=2)
    assert board(ruling) == (40, 50, 40, 52)  # the lesser of claimed and true
    assert ruling.beneficiary == on.b.entry


def test_a_wrong_muggins_call_gives_the_claimed_points_to_the_owner(judged):
    setup = judged(muggins=True)
    ruling = setup.record("muggins", before=(40, 50), claimed_missed=4, true_missed=0)
    assert board(ruling) == (40, 50, 44, 50)
    assert ruling.beneficiary == ruling.offender == setup.a.entry


def test_procedural_error_gives_two_to_the_opponent_and_can_end_the_game(setup):
    ruling = setup.record("exposed_bottom_card", before=(100, 119))
    assert board(ruling) == (100, 119, 100, 121)
    assert ruling.game_over and ruling.winner == setup.b.entry
    assert verified(setup) == {setup.a.pk: (0, 0, 21), setup.b.pk: (2, 21, 0)}


def test_wrong_hand_size_is_pegged_backward_and_never_below_zero(setup):
    ruling = setup.record("wrong_hand_size_refused_check", before=(50, 20))
    assert board(ruling) == (50, 20, 40, 20)
    second = setup.record("wrong_hand_size_refused_check", before=(6, 20))
    assert board(second)[2] == 0


@pytest.mark.parametrize("code", ["late_from_lunch", "refusal_to_conform", "playoff_no_show"])
def test_an_administrative_result_is_two_plus_ten_against_nought_minus_ten(setup, code):
    ruling = setup.record(code, offender="b", before=(90, 30), final=True)
    assert ruling.game_over and ruling.winner == setup.a.entry
    assert board(ruling) == (90, 30, 90, 30)  # decided off the board
    assert verified(setup) == {setup.a.pk: (2, 10, 0), setup.b.pk: (0, 0, 10)}
    assert ruling.final


def test_a_finished_game_takes_no_further_ruling(setup):
    setup.record("late_from_lunch", before=(0, 0))
    with pytest.raises(ServiceError) as error:
        setup.record("renege", before=(10, 10), reneged_cards=1)
    assert (error.value.field, error.value.code) == ("table", "game_over")
    assert Ruling.objects.count() == 1


def test_a_judge_who_plays_in_the_game_is_refused(setup):
    player = setup.a.entry.player
    player.user = make_judge(setup.event)
    player.save()
    error = refused(setup, "renege", reneged_cards=1, judges=[setup.judges[0], player.user])
    assert (error.field, error.code) == ("judges", "judge_is_player")
    # A judge who plays at another table may rule on this one.
    other = Table.objects.get(game__event=setup.event, game__number=1, number=2)
    elsewhere = other.seats.first().entry.player
    elsewhere.user = make_judge(setup.event)
    elsewhere.save()
    assert setup.record("renege", reneged_cards=1, judges=[setup.judges[0], elsewhere.user])


@pytest.mark.parametrize("count", [1, 4])
def test_two_or_three_judges(judged, count):
    setup = judged(judges_per_ruling=2)  # a club night may let one judge rule
    extra = [make_judge(setup.event)] if count == 4 else []
    judges = (setup.judges + extra)[:count]
    error = refused(setup, "renege", reneged_cards=1, judges=judges, third_judge=count == 4)
    assert (error.field, error.code) == ("judges", "judge_count")


def test_a_judge_without_the_judge_role_is_refused(setup):
    stranger = UserFactory()
    error = refused(setup, "renege", reneged_cards=1, judges=[setup.judges[0], stranger])
    assert (error.field, error.code) == ("judges", "not_a_judge")
    error = refused(setup, "renege", reneged_cards=1, judges=[setup.judges[0], setup.director])
    assert error.code == "not_a_judge"  # directing the event does not make one a judge
    elsewhere = UserFactory()
    EventRole.objects.create(event=EventFactory(), user=elsewhere, role=EventRole.Role.JUDGE)
    error = refused(setup, "renege", reneged_cards=1, judges=[setup.judges[0], elsewhere])
    assert error.code == "not_a_judge"  # judging another event does not count


def test_a_third_judge_means_three_judges_and_a_final_ruling(setup):
    error = refused(setup, "renege", reneged_cards=1, third_judge=True)
    assert (error.field, error.code) == ("third_judge", "third_judge")
    ruling = setup.record("renege", reneged_cards=1, judges=setup.judges, third_judge=True)
    assert ruling.third_judge and ruling.final
    assert set(ruling.judges.all()) == set(setup.judges)


@pytest.mark.parametrize(
    ("code", "kwargs", "field"),
    [
        ("renege", {}, "reneged_cards"),
        ("overpeg", {"true_score": 60}, "true_score"),  # above the peg: never forward
        ("overpeg", {"true_score": 10, "before": (130, 0)}, "score_before_offender"),
        ("renege", {"reneged_cards": 1, "before": (0, 122)}, "score_before_opponent"),
        ("exposed_bottom_card", {"true_score": 3}, "true_score"),  # not a figure of this code
    ],
)
def test_engine_refusals_name_the_field(setup, code, kwargs, field):
    kwargs.setdefault("before", (50, 50))
    error = refused(setup, code, **kwargs)
    assert error.field == field, error.message


def test_the_offender_must_sit_at_the_table(setup):
    other = Table.objects.get(game__event=setup.event, game__number=1, number=2)
    with pytest.raises(ServiceError) as error:
        ruling_record(
            table=setup.table,
            code="renege",
            offender_entry=other.seats.first().entry,
            score_before_offender=0,
            score_before_opponent=0,
            reneged_cards=1,
            judges=setup.judges[:2],
            entered_by=setup.director,
        )
    assert (error.value.field, error.value.code) == ("offender", "not_at_table")


def test_a_failure_while_storing_the_lines_saves_nothing(setup, monkeypatch):
    def broken(**kwargs):
        raise ServiceError("the lines could not be stored", code="broken")

    monkeypatch.setattr("tournaments.services.rulings.table_lines_replace", broken)
    judge_call_create(table=setup.table, entry=setup.a.entry)
    refused(setup, "late_from_lunch")
    assert JudgeCall.objects.get().answered_at is None


def test_a_ruling_answers_the_open_call_at_its_table(setup):
    judge_call_create(table=setup.table, entry=setup.a.entry)
    setup.record("renege", reneged_cards=1, entered_by=setup.judges[0])
    call = JudgeCall.objects.get()
    assert call.answered_by == setup.judges[0] and call.answered_at is not None


def test_a_player_calls_only_to_their_own_table_and_once_at_a_time(setup):
    other = Table.objects.get(game__event=setup.event, game__number=1, number=2)
    with pytest.raises(ServiceError) as error:
        judge_call_create(table=other, entry=setup.a.entry)
    assert (error.value.field, error.value.code) == ("table", "not_your_table")
    call = judge_call_create(table=setup.table, entry=setup.a.entry)
    with pytest.raises(ServiceError) as error:
        judge_call_create(table=setup.table, entry=setup.b.entry)
    assert error.value.code == "already_called"
    judge_call_answer(call=call, user=setup.judges[0])
    assert judge_call_create(table=setup.table, entry=setup.b.entry).is_open
    assert JudgeCall.objects.count() == 2


def test_no_calls_to_a_finished_game_and_none_by_a_stranger(setup):
    with pytest.raises(ServiceError) as error:
        judge_call_create(table=setup.table, user=UserFactory())
    assert error.value.code == "not_director"
    setup.record("late_from_lunch")
    with pytest.raises(ServiceError) as error:
        judge_call_create(table=setup.table, entry=setup.a.entry)
    assert error.value.code == "game_over"
    assert not JudgeCall.objects.exists()
