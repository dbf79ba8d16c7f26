"""Entries through the API: by form, walk-ins, CSV import, check-in and withdrawal."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import EntryFactory, EventFactory, PlayerFactory
from tests.helpers import csv_of
from tournaments.models import Club, Entry, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(director):
    return EventFactory(director=director, qualifying_games=3)


def entries_url(event) -> str:
    return f"/api/v1/events/{event.pk}/entries/"


class TestRegister:
    def test_one_player_by_form(self, api, event):
        ann = {"name": "Ann Able", "acc_number": "A1001", "club": "Riverside", "phone": "555"}
        unknown = api.post(entries_url(event), ann)  # clubs are public: never made unasked
        assert unknown.status_code == 400 and not Club.objects.exists()
        assert unknown.json()["errors"][0]["code"] == "unknown_club"
        response = api.post(entries_url(event), {**ann, "new_club": True})
        assert response.status_code == 201, response.json()
        body = response.json()
        assert {k: body[k] for k in ("name", "acc_number", "club", "status")} == {
            "name": "Ann Able",
            "acc_number": "A1001",
            "club": "Riverside",
            "status": "registered",
        }
        assert (body["joined_from_game"], body["withdrawn_after_game"]) == (1, None)
        # A new record starts with what the player gave; the entry keeps it for this event.
        assert Player.objects.get(acc_number="A1001").phone == "555" and body["phone"] == "555"

    def test_a_walk_in_is_checked_in_at_once(self, api, event):
        response = api.post(entries_url(event), {"name": "Walk In", "check_in": True})
        assert response.status_code == 201
        assert response.json()["status"] == "checked_in" and response.json()["club"] is None

    def test_the_service_rules_are_named(self, api, event):
        PlayerFactory(name="Bea Baker", acc_number="A2002")
        api.post(entries_url(event), {"name": "Ann Able", "acc_number": "A1001"})
        cases = [
            ({"name": "Ann Able", "acc_number": "A1001"}, "name", "already_entered"),
            ({"name": "Cal Cross", "acc_number": "A2002"}, "acc_number", "acc_number_taken"),
            ({"name": "Dot", "email": "dot-at-home"}, "email", "invalid"),
            ({"name": "  "}, "name", "blank"),
            ({"name": "Eve", "acc_number": "A" * 21}, "acc_number", "max_length"),
        ]
        for data, field, code in cases:
            response = api.post(entries_url(event), data)
            assert response.status_code == 400, data
            [error] = response.json()["errors"]
            assert (error["field"], error["code"]) == (field, code), data
        assert Entry.objects.count() == 1

    def test_a_late_entry_joins_from_the_next_game(self, api, make_event, pair):
        event = make_event(6, qualifying_games=3)
        pair(api, event.pk, 1)
        late = api.post(entries_url(event), {"name": "Late Larry"})
        assert late.status_code == 201
        assert (late.json()["status"], late.json()["joined_from_game"]) == ("checked_in", 2)


class TestImport:
    ROWS = [
        ("Bea Baker", "A1002", "Riverside", "bea@example.org", ""),
        ("Cal Cross", "", "Hillside", "", "555-0103"),
    ]

    def test_a_file_upload(self, api, event):
        Club.objects.bulk_create([Club(name="Riverside"), Club(name="Hillside")])
        upload = SimpleUploadedFile("p.csv", ("\ufeff" + csv_of(*self.ROWS)).encode(), "text/csv")
        response = api.post(
            f"{entries_url(event)}import/", {"file": upload, "check_in": True}, format="multipart"
        )
        assert response.status_code == 201, response.json()
        assert [(e["name"], e["club"], e["status"]) for e in response.json()] == [
            ("Bea Baker", "Riverside", "checked_in"),
            ("Cal Cross", "Hillside", "checked_in"),
        ]

    def test_csv_text_in_json(self, api, event):
        clubs = {"Riverside": "new", "hillside": "new"}  # answered by name, however spelled
        body = {"csv": csv_of(*self.ROWS), "clubs": clubs}
        response = api.post(f"{entries_url(event)}import/", body, format="json")
        assert response.status_code == 201
        assert {e["status"] for e in response.json()} == {"registered"}
        assert event.entries.count() == 2

    def test_bad_rows_are_each_named_and_nothing_is_saved(self, api, event):
        text = csv_of(
            ("Ann Able", "A1001", "Riverside", "ann@example.org", ""),  # row 2: fine
            ("", "A1003", "Riverside", "", ""),  # row 3: no name
            ("Dot Dealer", "", "", "dot-at-home", ""),  # row 4: bad e-mail
            ("Ann Able", "A1001", "", "", ""),  # row 5: row 2 again
        )
        response = api.post(f"{entries_url(event)}import/", {"csv": text})
        assert response.status_code == 400
        errors = response.json()["errors"]
        assert [(e["row"], e["field"]) for e in errors] == [
            (3, "rows[3].name"),
            (4, "rows[4].email"),
            (5, "rows[5].name"),
        ]
        assert "required" in errors[0]["message"]
        assert "dot-at-home" in errors[1]["message"]
        assert "row 2" in errors[2]["message"]
        assert not Entry.objects.exists() and not Player.objects.exists()
        assert not Club.objects.exists()

    def test_a_row_clashing_with_the_database_saves_nothing(self, api, event):
        PlayerFactory(name="Zed Zero", acc_number="A9999")
        text = csv_of(
            ("Ann Able", "A1001", "Riverside", "", ""),
            ("Not Zed", "A9999", "", "", ""),
        )
        response = api.post(f"{entries_url(event)}import/", {"csv": text})
        assert response.status_code == 400
        [error] = response.json()["errors"]
        assert (error["field"], error["row"]) == ("rows[3].acc_number", 3)
        assert "belongs to Zed Zero" in error["message"]
        assert not Entry.objects.exists()
        assert list(Player.objects.values_list("name", flat=True)) == ["Zed Zero"]

    def test_the_file_itself_must_be_a_csv_with_a_name_column(self, api, event):
        url = f"{entries_url(event)}import/"
        no_header = api.post(url, {"csv": "Ann Able,A1001\n"})
        assert no_header.json()["errors"][0]["field"] == "file"
        assert no_header.json()["errors"][0]["code"] == "missing_header"
        nothing = api.post(url, {"check_in": True})
        assert nothing.status_code == 400
        assert nothing.json()["errors"][0]["field"] == "file"
        binary = SimpleUploadedFile("p.csv", b"\xff\xfe\x00n\x00a", "text/csv")
        not_utf8 = api.post(url, {"file": binary}, format="multipart")
        assert not_utf8.json()["errors"][0]["code"] == "encoding"
        assert not Entry.objects.exists()


class TestCheckInAndWithdraw:
    def test_check_in_then_withdraw(self, api, event):
        entry = EntryFactory(event=event, status="registered")
        checked = api.post(f"/api/v1/entries/{entry.pk}/check-in/")
        assert checked.status_code == 200 and checked.json()["status"] == "checked_in"
        withdrawn = api.post(f"/api/v1/entries/{entry.pk}/withdraw/")
        assert withdrawn.status_code == 200
        assert (withdrawn.json()["status"], withdrawn.json()["withdrawn_after_game"]) == (
            "withdrawn",
            0,
        )
        again = api.post(f"/api/v1/entries/{entry.pk}/withdraw/")
        assert again.status_code == 400 and again.json()["errors"][0]["code"] == "withdrawn"
        late_check_in = api.post(f"/api/v1/entries/{entry.pk}/check-in/")
        assert late_check_in.status_code == 400
        entry.refresh_from_db()
        assert entry.status == Entry.Status.WITHDRAWN

    def test_a_missing_entry_is_404(self, api):
        assert api.post("/api/v1/entries/999999/check-in/").status_code == 404


def test_the_entry_list_costs_the_same_queries_for_10_or_60_players(api, director):
    def queries_for(players: int) -> int:
        event = EventFactory(director=director)
        for entry in EntryFactory.create_batch(players, event=event):
            entry.player.home_club = Club.objects.create(name=f"Club {entry.pk}")
            entry.player.save()
        with CaptureQueriesContext(connection) as queries:
            response = api.get(entries_url(event))
        assert response.json()["count"] == players
        assert all(e["club"] for e in response.json()["results"])
        return len(queries)

    assert queries_for(10) == queries_for(60)
