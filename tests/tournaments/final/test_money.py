"""Prize money: the fund, a qualifier pool, payouts by finish band, rounding, changes by hand."""

import csv
import io

import pytest

from tournaments.errors import ServiceError
from tournaments.models import Event, Playoff
from tournaments.selectors.final import event_final_results, event_payouts
from tournaments.services.prizes import event_money_update, payout_set_by_hand

pytestmark = pytest.mark.django_db

PERCENTS = {"1": 40, "2": 25, "3-4": 20, "5-8": 15}


def _set_money(event, pool=None, percents=PERCENTS):
    # 20 entrants at $20 less $1 sanctioning each: a fund of $380.
    event_money_update(
        event=event,
        user=event.director,
        entry_fee_cents=2000,
        sanctioning_fee_cents=100,
        payout_percents=percents,
        qualifier_pool=pool or {"split": "equal", "percent": 10},
    )
    event.refresh_from_db()
    return event


def test_payouts_with_an_equal_pool_round_down_to_dollars(finished_main):
    event = _set_money(finished_main())
    table = event_payouts(event=event)
    assert table.fund.net == 38000
    lines = {line.key: (line.players, line.each) for line in table.payouts.lines}
    # Pool $38 over 5 qualifiers: $7.60 each, paid $7. Playoff fund $342.
    assert lines == {
        "1": (1, 13600),
        "2": (1, 8500),
        "3-4": (2, 3400),  # the losers of a round are paid alike
        "5-8": (1, 5100),
        "Q1-5": (5, 700),
    }
    assert table.payouts.rounding_left_over == 300 + 80 + 50 + 40 + 30
    ranked = event.ranked
    assert table.by_entry[ranked[2].pk] == 13600 + 700  # champion, seed 3
    assert table.by_entry[ranked[4].pk] == 5100 + 700
    assert ranked[5].pk not in table.by_entry


def test_graduated_pool_pays_the_top_group_more(finished_main):
    event = _set_money(finished_main(), pool={"split": "graduated", "percent": 10, "graduation": 4})
    lines = {line.key: line.each for line in event_payouts(event=event).payouts.lines}
    # Two groups: places 1-4 two shares, place 5 one share; $38 / 9 shares.
    assert lines["Q1-4"] == 800 and lines["Q5"] == 400


def test_payouts_appear_on_the_results_and_in_the_csv(client, finished_main):
    event = _set_money(finished_main())
    Event.objects.filter(pk=event.pk).update(published=True)
    rows = event_final_results(event=event).rows
    assert [r.payout_cents for r in rows[:5]] == [14300, 9200, 4100, 4100, 5800]
    assert all(r.payout_cents == 0 for r in rows[5:])
    payouts = list(
        csv.reader(io.StringIO(client.get(f"/events/{event.pk}/payouts.csv").content.decode()))
    )
    assert payouts[0] == ["place", "name", "acc_number", "payout"]
    assert payouts[1] == [
        "1",
        event.ranked[2].player.name,
        event.ranked[2].player.acc_number,
        "143.00",
    ]
    assert len(payouts) == 1 + 5
    results = client.get(f"/events/{event.pk}/results.csv").content.decode()
    assert "143.00" in results


def test_a_payout_set_by_hand_is_stored_and_checked_against_the_fund(finished_main):
    event = _set_money(finished_main())
    with pytest.raises(ServiceError) as refused:
        payout_set_by_hand(event=event, key="1", cents_each=13600 + 501, user=event.director)
    assert "more than the fund" in refused.value.message
    assert Playoff.objects.get(event=event).payout_adjustments == {}
    payout_set_by_hand(event=event, key="1", cents_each=13600 + 500, user=event.director)
    assert Playoff.objects.get(event=event).payout_adjustments == {"1": 500}
    table = event_payouts(event=event)
    assert table.payouts.balance == 0
    assert table.by_entry[event.ranked[2].pk] == 14100 + 700
    with pytest.raises(ServiceError, match="No payout line"):
        payout_set_by_hand(event=event, key="9-16", cents_each=100, user=event.director)


def test_settings_that_break_the_core_rules_are_refused(finished_main):
    event = finished_main()
    with pytest.raises(ServiceError, match="more than 100%"):
        _set_money(event, percents={"1": 60, "2": 50})
    with pytest.raises(ServiceError, match="not a finish band"):
        _set_money(event, percents={"3-5": 10})
    event.refresh_from_db()
    assert event.payout_percents == {} and event.entry_fee_cents == 0


def test_money_page_saves_settings_and_refuses_too_much_by_hand(client, finished_main):
    event = finished_main()
    client.force_login(event.director)
    page = client.get(f"/events/{event.pk}/money/")
    assert page.status_code == 200 and "band_3-4" in page.content.decode()
    data = {
        "entry_fee": "20",
        "sanctioning_fee": "1",
        "pool": "graduated-4",
        "pool_percent": "10",
        "band_1": "40",
        "band_2": "25",
        "band_3-4": "20",
        "band_5-8": "15",
    }
    assert client.post(f"/events/{event.pk}/money/", data).status_code == 302
    event.refresh_from_db()
    assert event.qualifier_pool == {"split": "graduated", "percent": "10", "graduation": 4}
    assert event.entry_fee_cents == 2000 and event.payout_percents["3-4"] == "20"
    too_much = client.post(
        f"/events/{event.pk}/money/adjust/", {"key": "1", "amount": "500"}, follow=True
    )
    assert "more than the fund" in too_much.content.decode()
    assert Playoff.objects.get(event=event).payout_adjustments == {}
    bad = client.post(f"/events/{event.pk}/money/", {**data, "band_1": "90"})
    assert bad.status_code == 400 and "more than 100%" in bad.content.decode()
