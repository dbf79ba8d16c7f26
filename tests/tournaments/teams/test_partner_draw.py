"""The blind draw of partners: the pure draw, the service, the API and the manage page."""

from __future__ import annotations

import pytest
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from tests.factories import EntryFactory, EventFactory, UserFactory
from tests.helpers import client_for
from tournaments.core.partner_draw import draw_partners
from tournaments.models import AuditEntry, Entry, Notice, Team


@given(st.sets(st.integers(1, 10_000), max_size=41), st.integers(0, 2**62))
def test_the_draw_pairs_everyone_once_and_the_seed_reproduces_it(pool, seed):
    drawn = draw_partners(pool, seed)
    placed = [p for team in drawn.teams for p in team]
    placed += [] if drawn.waiting is None else [drawn.waiting]
    assert sorted(placed) == sorted(pool)
    assert (drawn.waiting is not None) == (len(pool) % 2 == 1)
    assert draw_partners(sorted(pool, reverse=True), seed) == drawn  # order of listing aside


def test_two_seeds_give_two_draws():
    pool = range(1, 21)
    assert draw_partners(pool, 1).teams != draw_partners(pool, 2).teams


@pytest.fixture
def director():
    return UserFactory(username="td")


@pytest.fixture
def doubles(director):
    event = EventFactory(director=director, style="doubles")
    EntryFactory.create_batch(7, event=event, status=Entry.Status.CHECKED_IN)
    EntryFactory(event=event, status=Entry.Status.REGISTERED)  # not checked in: not drawn
    return event


def url(event) -> str:
    return f"/api/v1/events/{event.pk}/teams/draw/"


@pytest.mark.django_db
class TestDrawApi:
    def test_the_director_draws_and_the_odd_player_waits(self, director, doubles):
        response = client_for(director).post(url(doubles), {"seed": 42}, format="json")
        assert response.status_code == 201, response.json()
        body = response.json()
        assert body["seed"] == 42 and len(body["teams"]) == 3
        assert all(team["drawn"] and len(team["members"]) == 2 for team in body["teams"])
        waiting = Entry.objects.get(pk=body["waiting"]["entry_id"])
        assert waiting.team_id is None and waiting.status == Entry.Status.CHECKED_IN
        assert "waits for a late partner" in body["message"]
        assert Notice.objects.filter(entry=waiting, message__contains="late partner").exists()
        doubles.refresh_from_db()
        assert doubles.partner_draw_seed == 42
        assert AuditEntry.objects.filter(event=doubles, action="partners_draw").count() == 1
        # A late player checks in: the next draw pairs them with the one waiting.
        late = EntryFactory(event=doubles, status=Entry.Status.CHECKED_IN)
        again = client_for(director).post(url(doubles)).json()
        assert again["waiting"] is None and len(again["teams"]) == 1
        pair = {m["entry_id"] for m in again["teams"][0]["members"]}
        assert pair == {waiting.pk, late.pk}

    def test_the_same_players_and_seed_draw_the_same_teams(self, director):
        def draw_in_new_event():
            event = EventFactory(director=director, style="doubles")
            entries = EntryFactory.create_batch(6, event=event, status=Entry.Status.CHECKED_IN)
            body = client_for(director).post(url(event), {"seed": 9}, format="json").json()
            index = {entry.pk: n for n, entry in enumerate(entries)}
            return sorted(
                tuple(sorted(index[m["entry_id"]] for m in team["members"]))
                for team in body["teams"]
            )

        assert draw_in_new_event() == draw_in_new_event()

    def test_refused_draws_change_nothing(self, director, doubles):
        client = client_for(director)
        bad = client.post(url(doubles), {"seed": 1, "shuffle": True}, format="json")
        assert bad.status_code == 400 and bad.json()["errors"][0]["code"] == "unknown_field"
        singles = EventFactory(director=director)
        EntryFactory.create_batch(2, event=singles, status=Entry.Status.CHECKED_IN)
        refused = client.post(url(singles))
        assert refused.json()["errors"][0]["code"] == "singles_event"
        lonely = EventFactory(director=director, style="doubles")
        EntryFactory(event=lonely, status=Entry.Status.CHECKED_IN)
        too_few = client.post(url(lonely))
        assert too_few.json()["errors"][0]["code"] == "too_few_to_draw"
        assert not Team.objects.exists() and not Notice.objects.exists()
        doubles.refresh_from_db()
        assert doubles.partner_draw_seed is None

    def test_another_director_and_a_visitor_may_not_draw(self, doubles):
        for client in (client_for(EventFactory().created_by), client_for()):
            assert client.post(url(doubles)).status_code in (401, 403, 404)
        assert not Team.objects.exists()


@pytest.mark.django_db
def test_the_manage_page_draws_partners(director, doubles):
    client = Client()
    client.force_login(director)
    page = client.get(f"/events/{doubles.pk}/manage/").content.decode()
    assert "Draw partners" in page and "Pairs the 7 checked-in players" in page
    response = client.post(f"/events/{doubles.pk}/teams/draw/", follow=True)
    text = response.content.decode()
    assert "3 teams drawn" in text and "waits for a late partner" in text
    assert Team.objects.filter(event=doubles, drawn=True).count() == 3
