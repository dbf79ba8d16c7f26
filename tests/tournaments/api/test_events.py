"""Events through the API: create from a preset, settings, closing registration, who sees what."""

from __future__ import annotations

import pytest

from tests.factories import EntryFactory, EventFactory
from tests.helpers import client_for
from tournaments.models import Event

pytestmark = pytest.mark.django_db

DIRECTOR_ONLY = {"created_by", "created_at"}


class TestCreate:
    def test_from_a_preset_with_overrides(self, api, director):
        response = api.post(
            "/api/v1/events/",
            {"name": "Spring Consolation", "preset": "acc-consolation", "qualifying_games": 10},
        )
        assert response.status_code == 201, response.json()
        body = response.json()
        assert body["preset"] == "acc-consolation" and body["kind"] == "consolation"
        assert body["qualifying_games"] == 10  # the override
        assert body["playoff_best_of"] == {"every": 3, "semi": None, "final": None}  # the preset's
        assert body["target_score"] == 121
        assert body["created_by"] == director.pk
        assert body["sanctioned"] is False and body["published"] is False  # the ACC office's
        event = Event.objects.get(pk=body["id"])
        assert event.roles.get().user == director

    def test_published_at_once(self, api):
        body = {"name": "Open day", "preset": "grass-roots", "published": True}
        assert api.post("/api/v1/events/", body, format="json").json()["published"] is True

    def test_unknown_preset_and_missing_name_are_named(self, api):
        response = api.post("/api/v1/events/", {"preset": "acc-grand-final"})
        assert response.status_code == 400
        errors = {(e["field"], e["code"]) for e in response.json()["errors"]}
        assert errors == {("name", "required"), ("preset", "invalid_choice")}
        assert not Event.objects.exists()

    def test_inconsistent_scoring_is_refused_by_the_service(self, api):
        response = api.post(
            "/api/v1/events/", {"name": "Odd night", "preset": "grass-roots", "skunk_points": 1}
        )
        assert response.status_code == 400
        [error] = response.json()["errors"]
        assert (error["field"], error["code"]) == ("settings", "inconsistent_scoring")
        assert "skunk_points" in error["message"]
        assert not Event.objects.exists()

    def test_anonymous_visitors_cannot_create(self, anonymous):
        response = anonymous.post("/api/v1/events/", {"name": "X", "preset": "grass-roots"})
        assert response.status_code in (401, 403)
        assert not Event.objects.exists()


class TestList:
    def test_a_director_lists_only_their_events(self, api, director, other_director):
        mine = EventFactory(director=director, name="Mine")
        EventFactory(name="Someone else's")
        assert [e["id"] for e in api.get("/api/v1/events/").json()["results"]] == [mine.pk]

    def test_published_events_are_listed_for_anyone(self, anonymous):
        shown = EventFactory(name="Open")
        Event.objects.filter(pk=shown.pk).update(published=True)
        EventFactory(name="Draft")
        assert anonymous.get("/api/v1/events/").status_code in (401, 403)
        listed = anonymous.get("/api/v1/events/?published=1").json()["results"]
        assert [e["name"] for e in listed] == ["Open"]
        assert DIRECTOR_ONLY.isdisjoint(listed[0])

    def test_list_queries_do_not_grow_with_the_events(
        self, api, director, django_assert_max_num_queries
    ):
        for _ in range(12):
            event = EventFactory(director=director)
            EntryFactory.create_batch(3, event=event)
        with django_assert_max_num_queries(3):
            response = api.get("/api/v1/events/")
        assert response.json()["count"] == 12


class TestDetail:
    def test_unpublished_events_are_for_their_people_only(self, api, director, anonymous):
        event = EventFactory(director=director)
        url = f"/api/v1/events/{event.pk}/"
        assert set(api.get(url).json()) >= DIRECTOR_ONLY
        stranger = client_for(EventFactory().created_by)
        assert stranger.get(url).status_code == 404
        assert anonymous.get(url).status_code == 404

    def test_a_published_event_shows_its_public_fields(self, api, director, anonymous):
        event = EventFactory(director=director)
        api.patch(f"/api/v1/events/{event.pk}/", {"published": True})
        public = anonymous.get(f"/api/v1/events/{event.pk}/")
        assert public.status_code == 200
        assert public.json()["qualifying_games"] == 9  # settings are public
        assert DIRECTOR_ONLY.isdisjoint(public.json())
        stranger = client_for(EventFactory().created_by).get(f"/api/v1/events/{event.pk}/")
        assert stranger.status_code == 200 and DIRECTOR_ONLY.isdisjoint(stranger.json())

    def test_a_missing_event_is_404(self, api):
        response = api.get("/api/v1/events/999999/")
        assert response.status_code == 404
        assert response.json()["errors"][0]["code"] == "not_found"


class TestSettings:
    def test_settings_change_before_play(self, api, director):
        event = EventFactory(director=director)
        response = api.patch(
            f"/api/v1/events/{event.pk}/",
            {"qualifying_games": 7, "muggins": True, "playoff_best_of": {"every": 3, "final": 5}},
        )
        assert response.status_code == 200, response.json()
        event.refresh_from_db()
        assert (event.qualifying_games, event.muggins, event.playoff_best_of) == (
            7,
            True,
            {"every": 3, "semi": None, "final": 5},
        )
        assert event.target_score == 121  # untouched: PATCH changes only what it names

    def test_field_rules_are_named(self, api, director):
        event = EventFactory(director=director)
        response = api.patch(
            f"/api/v1/events/{event.pk}/", {"target_score": 500, "playoff_best_of": {"every": 4}}
        )
        assert response.status_code == 400
        [error] = response.json()["errors"]
        assert (error["field"], error["code"]) == ("target_score", "max_value")
        even = api.patch(f"/api/v1/events/{event.pk}/", {"playoff_best_of": {"every": 4}})
        assert even.json()["errors"][0]["code"] == "odd_best_of"
        assert "Every round: best of 4 is not allowed" in even.json()["errors"][0]["message"]
        by_round = api.patch(f"/api/v1/events/{event.pk}/", {"playoff_best_of": [3, 5]})
        assert by_round.status_code == 400 and '"final"' in by_round.json()["errors"][0]["message"]
        event.refresh_from_db()
        assert event.target_score == 121 and event.playoff_best_of["every"] == 3

    def test_settings_are_fixed_once_play_started(self, api, make_event, pair):
        event = make_event(6, qualifying_games=3)
        pair(api, event.pk, 1)
        response = api.patch(f"/api/v1/events/{event.pk}/", {"qualifying_games": 4})
        assert response.status_code == 400
        [error] = response.json()["errors"]
        assert (error["field"], error["code"]) == ("settings", "play_started")
        assert "game 1 is already paired" in error["message"]
        event.refresh_from_db()
        assert event.qualifying_games == 3
        renamed = api.patch(f"/api/v1/events/{event.pk}/", {"name": "Renamed"})
        assert renamed.status_code == 200 and renamed.json()["name"] == "Renamed"


class TestCloseRegistration:
    def test_closing_starts_the_qualifying_round_with_checked_in_players(self, api, director):
        event = EventFactory(director=director, qualifying_games=3)
        EntryFactory.create_batch(4, event=event)
        EntryFactory(event=event, status="registered")
        response = api.post(f"/api/v1/events/{event.pk}/close-registration/")
        assert response.status_code == 200 and response.json()["stage"] == "qualifying"
        again = api.post(f"/api/v1/events/{event.pk}/close-registration/")
        assert again.status_code == 400
        assert again.json()["errors"][0]["code"] == "already_closed"

    def test_an_impossible_schedule_is_explained(self, api, director):
        event = EventFactory(director=director, preset="acc-main")  # 22 games
        EntryFactory.create_batch(12, event=event)
        response = api.post(f"/api/v1/events/{event.pk}/close-registration/")
        assert response.status_code == 400
        [error] = response.json()["errors"]
        assert (error["field"], error["code"]) == ("qualifying_games", "schedule_impossible")
        assert "22 games need at least 23 players" in error["message"]
        assert "this event has 12" in error["message"]
        event.refresh_from_db()
        assert event.stage == Event.Stage.REGISTRATION

    def test_too_few_checked_in_players(self, api, director):
        event = EventFactory(director=director)
        EntryFactory(event=event)
        EntryFactory.create_batch(3, event=event, status="registered")
        response = api.post(f"/api/v1/events/{event.pk}/close-registration/")
        assert response.status_code == 400
        assert response.json()["errors"][0] == {
            "field": None,
            "code": "too_few_players",
            "message": "At least two players must be checked in to start; 1 is.",
        }


class TestFieldsNotTaken:
    """Issue 22: a field an event endpoint does not take was dropped with a 200/201."""

    def test_a_setting_the_patch_does_not_take_is_refused_and_nothing_changes(self, api, director):
        event = EventFactory(director=director)
        response = api.patch(
            f"/api/v1/events/{event.pk}/", {"name": "Renamed", "entry_fee_cents": 5000}
        )
        assert response.status_code == 400
        [error] = response.json()["errors"]
        assert (error["field"], error["code"]) == ("entry_fee_cents", "unknown_field")
        assert "it takes " in error["message"] and "qualifying_games" in error["message"]
        event.refresh_from_db()
        assert event.entry_fee_cents == 0 and event.name != "Renamed"

    def test_a_parent_named_at_creation_is_stored(self, api, director):
        main = EventFactory(director=director)
        body = {"name": "Sat", "preset": "acc-main", "kind": "satellite", "parent": main.pk}
        response = api.post("/api/v1/events/", body)
        assert response.status_code == 201 and response.json()["parent"] == main.pk
        assert Event.objects.get(name="Sat").parent_id == main.pk

    def test_a_parent_someone_else_directs_is_refused_and_no_event_is_made(self, api, director):
        main = EventFactory()
        body = {"name": "Sat", "preset": "acc-main", "kind": "satellite", "parent": main.pk}
        response = api.post("/api/v1/events/", body)
        assert response.status_code == 400
        assert [e["field"] for e in response.json()["errors"]] == ["parent"]
        assert not Event.objects.filter(name="Sat").exists()

    def test_a_read_only_field_is_refused_too(self, api, director):
        event = EventFactory(director=director)
        response = api.patch(f"/api/v1/events/{event.pk}/", {"stage": "finished"})
        assert [e["field"] for e in response.json()["errors"]] == ["stage"]
