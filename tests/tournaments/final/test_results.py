"""Final results: finish bands, the named places, MRPs and the CSV."""

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments.models import Event
from tournaments.selectors.final import event_final_results

pytestmark = pytest.mark.django_db


def _by_seed(final):
    return {row.seed: row for row in final.rows if row.seed}


def test_finish_bands_and_named_places(finished_main):
    event = finished_main()
    final = event_final_results(event=event)
    ranked = event.ranked
    assert final.complete
    assert final.bands == [("1", 1), ("2", 1), ("3-4", 2), ("5", 1)]
    seeds = _by_seed(final)
    assert [seeds[s].band for s in (1, 2, 3, 4, 5)] == ["2", "3-4", "1", "3-4", "5-8"]
    # Three byes: one player loses in round 1, alone in place 5 (places 6-8 were byes).
    assert [seeds[s].place for s in (1, 2, 3, 4, 5)] == ["2", "3-4", "1", "3-4", "5"]
    assert final.winner.entry_id == ranked[2].pk
    assert final.runner_up.entry_id == ranked[0].pk
    assert final.high_non_qualifier.entry_id == ranked[5].pk
    # Qualifiers by finish (then seed), then the non-qualifiers by qualifying rank.
    assert [r.entry_id for r in final.rows[:5]] == [ranked[i].pk for i in (2, 0, 1, 3, 4)]
    assert [r.qualifying_rank for r in final.rows[5:]] == list(range(6, 21))
    assert all(r.seed is None and r.band == "" for r in final.rows[5:])


def test_unfinished_playoff_shows_players_still_in(finished_main):
    event = finished_main(results={(1, 1): 4})
    final = event_final_results(event=event)
    assert not final.complete and final.winner is None and final.runner_up is None
    seeds = _by_seed(final)
    assert seeds[5].band == "5-8"
    assert all(seeds[s].band == "" for s in (1, 2, 3, 4))


def test_mrp_on_a_tabled_main(finished_main):
    event = finished_main(games=12)
    final = event_final_results(event=event)
    seeds = _by_seed(final)
    # 12 games: T = 14, scale 5, top half ranks 1-3; playoffs 7 * r * (r + 1) / 2.
    assert seeds[3].mrp == 5 * (18 - 14 + 1) + 70  # champion: r = 4
    assert seeds[1].mrp == 5 * (20 - 14 + 1) + 42  # bye and one win: r = 3
    assert seeds[2].mrp == 5 * (19 - 14 + 1) + 21  # a bye counts as won
    assert seeds[4].mrp == 5 + 21
    assert seeds[5].mrp == 5 + 7
    assert all(r.mrp is None for r in final.rows[5:])
    assert final.mrp_schedule == "2016-08-01"


@pytest.mark.parametrize(
    ("preset", "games", "note"),
    [("grass-roots", 9, "not ACC-sanctioned"), ("acc-main", 13, "13 qualifying games")],
)
def test_no_mrp_for_a_club_night_or_an_untabled_length(finished_main, preset, games, note):
    final = event_final_results(event=finished_main(preset=preset, games=games))
    assert final.mrp_schedule is None and note in final.mrp_note
    assert all(row.mrp is None for row in final.rows)


def test_before_the_cut_there_are_no_results(client, event_in_play):
    event = event_in_play(10)
    final = event_final_results(event=event)
    assert final.playoff is None and final.rows == []
    Event.objects.filter(pk=event.pk).update(published=True)
    page = client.get(f"/events/{event.pk}/results/")
    assert page.status_code == 200 and "cut has not been made" in page.content.decode()


def test_results_csv_columns_and_rows(client, finished_main):
    event = finished_main()
    client.force_login(event.director)
    response = client.get(f"/events/{event.pk}/results.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == [
        "place",
        "name",
        "acc_number",
        "qualifying_rank",
        "seed",
        "finish_band",
        "mrp",
        "payout",
    ]
    assert len(rows) == 1 + 20
    champion = event.ranked[2].player
    assert rows[1] == ["1", champion.name, champion.acc_number, "3", "3", "1", "95", "0.00"]
    assert rows[6][:6] == [
        "6",
        event.ranked[5].player.name,
        event.ranked[5].player.acc_number,
        "6",
        "",
        "",
    ]


def test_results_page_and_api_name_the_winner(client, finished_main):
    event = finished_main()
    Event.objects.filter(pk=event.pk).update(published=True)
    page = client.get(f"/events/{event.pk}/results/").content.decode()
    assert event.ranked[2].player.name in page and "(high non-qualifier)" in page
    data = client.get(f"/api/v1/events/{event.pk}/results/").json()
    assert data["winner"]["entry_id"] == event.ranked[2].pk
    assert data["runner_up"]["entry_id"] == event.ranked[0].pk
    assert data["high_non_qualifier"]["entry_id"] == event.ranked[5].pk
    assert data["bands"][2] == {"band": "3-4", "players": 2}
    assert len(data["rows"]) == 20 and data["rows"][0]["mrp"] == 95


def test_results_queries_do_not_grow_with_the_field(finished_main):
    small, large = finished_main(players=20, results={}), finished_main(players=60, results={})
    counts = []
    for event in (small, large):
        with CaptureQueriesContext(connection) as ctx:
            event_final_results(event=event)
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1]
