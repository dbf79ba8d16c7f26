"""One finished event, every surface: the results page, the ACC sheet, the CSVs and the API
answers show the same money and the same places for every player (issue 22, item 1).

The event: 24 entrants, a cut of 6 in an 8-line bracket (2 byes), $20 entry less $1
sanctioning, a 10% equal qualifier pool. Round 1: seed 5 beats 4, seed 3 beats 6; round 2:
seed 1 beats 5, seed 3 beats 2; the final: seed 3 beats seed 1. The two losers of round 1
share places 5-6 (the payout line's key is "5-8").
"""

import csv
import io
from html.parser import HTMLParser

import pytest

from tests.helpers import client_for
from tournaments.core.money import dollars
from tournaments.models import Event
from tournaments.selectors.final import event_final_results
from tournaments.services.ledger import event_finalise_request
from tournaments.services.prizes import event_money_update

pytestmark = pytest.mark.django_db

CUT_OF_SIX = {(1, 1): 5, (1, 3): 3, (2, 0): 1, (2, 1): 3, (3, 0): 3}


class _Cells(HTMLParser):
    """Each body row of the page's tables as {data-label: text}, with the player's name."""

    def __init__(self):
        super().__init__()
        self.rows, self._row, self._label, self._strong = [], None, None, False

    def handle_starttag(self, tag, attrs):
        if tag == "tr":
            self._row = {}
        elif tag == "td" and self._row is not None:
            self._label = dict(attrs).get("data-label", "Name")
            self._row.setdefault(self._label, "")

    def handle_endtag(self, tag):
        if tag == "tr" and self._row:
            self.rows.append({k: " ".join(v.split()) for k, v in self._row.items()})
        if tag == "tr":
            self._row = None
        if tag == "td":
            self._label = None

    def handle_data(self, data):
        if self._row is not None and self._label:
            self._row[self._label] += data


def _page_rows(html: str) -> list[dict]:
    parser = _Cells()
    parser.feed(html)
    return parser.rows


def _csv(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


@pytest.fixture
def event(finished_main, django_capture_on_commit_callbacks):
    event = finished_main(players=24, results=CUT_OF_SIX)
    event_money_update(
        event=event,
        user=event.director,
        entry_fee_cents=2000,
        sanctioning_fee_cents=100,
        payout_percents={"1": 40, "2": 25, "3-4": 20, "5-8": 15},
        qualifier_pool={"split": "equal", "percent": 10},
    )
    Event.objects.filter(pk=event.pk).update(published=True)
    with django_capture_on_commit_callbacks(execute=True):
        event_finalise_request(event=event, user=event.director)
    event.refresh_from_db()
    assert event.finalised_at is not None
    return event


def test_every_money_and_place_figure_agrees(client, event):
    final = event_final_results(event=event)
    # A qualifier's finish is their place; a non-qualifier has none (their place is their rank).
    expected = {
        r.name: (r.place, r.place if r.seed else "", dollars(r.payout_cents)) for r in final.rows
    }
    assert len(expected) == 24
    # The cut of 6: the two losers of round 1 share places 5-6, and they are paid.
    losers = [r for r in final.rows if r.seed in (4, 6)]
    assert [r.place for r in losers] == ["5-6", "5-6"] and all(r.payout_cents for r in losers)
    assert final.bands[-1] == ("5-6", 2)
    client.force_login(event.director)
    base = f"/events/{event.pk}"

    results_page = _page_rows(client.get(f"{base}/results/").content.decode())
    assert len(results_page) == 24
    for row in results_page:
        name = row["Player"].split(" (")[0]
        place, _, money = expected[name]
        assert (row["Place"], row["Prize"]) == (place, f"${money}" if money != "0.00" else "")

    sheet = client.get(f"{base}/acc-results/")
    assert sheet.status_code == 200
    sheet_rows = _page_rows(sheet.content.decode())
    assert len(sheet_rows) == 24
    for row in sheet_rows:
        _, finish, money = expected[row["Name"]]
        assert row["Finish"] == (finish or "—")
        assert row["Prize"] == (f"${money}" if money != "0.00" else "—")

    results_csv = _csv(client.get(f"{base}/results.csv"))
    head = results_csv[0]
    for line in results_csv[1:]:
        got = dict(zip(head, line, strict=True))
        place, finish, money = expected[got["name"]]
        assert (got["place"], got["finish_band"], got["payout"]) == (place, finish, money)

    payouts_csv = _csv(client.get(f"{base}/payouts.csv"))
    paid = {name: (place, money) for name, (place, _, money) in expected.items() if money != "0.00"}
    assert {line[1]: (line[0], line[3]) for line in payouts_csv[1:]} == paid

    acc_csv = _csv(client.get(f"{base}/acc-results.csv"))
    lines = dict(line for line in acc_csv if len(line) == 2)
    assert lines["Entry fee"] == "20.00" and lines["ACC sanctioning fees"] == "24.00"
    start = acc_csv.index([]) + 1
    head = acc_csv[start]
    for line in acc_csv[start + 1 :]:
        got = dict(zip(head, line, strict=True))
        _, finish, money = expected[got["name"]]
        assert (got["playoff_finish"], got["prize"]) == (finish, money)

    api = client_for(event.director)
    for answer in (
        api.get(f"/api/v1/events/{event.pk}/results/").json(),
        api.get(f"/api/v1/events/{event.pk}/acc-results/").json(),
    ):
        assert len(answer["rows"]) == 24
        for row in answer["rows"]:
            place, finish, money = expected[row["name"]]
            assert (row["place"], row["band"], dollars(row["payout_cents"])) == (
                place,
                finish,
                money,
            )
    package = api.get(f"/api/v1/events/{event.pk}/acc-results/").json()
    assert dollars(package["entry_fee_cents"]) == lines["Entry fee"]
    results = api.get(f"/api/v1/events/{event.pk}/results/").json()
    assert results["bands"][-1] == {"band": "5-6", "players": 2}


def test_money_is_written_one_way():
    assert [dollars(c) for c in (18000, 5, 0, -250, 123456)] == [
        "180.00",
        "0.05",
        "0.00",
        "-2.50",
        "1234.56",
    ]
