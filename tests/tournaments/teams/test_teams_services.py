"""Teams of two entered by the director's page and by a CSV list (services.teams,
services.teams_import), and the entrant seam naming a team and its partners."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, Entry, Team
from tournaments.selectors.entrants import entrant_of, entry_team_names
from tournaments.services.entries_import import ImportRowErrors, entries_import_csv
from tournaments.services.teams import team_form


def client_for(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return UserFactory()


@pytest.fixture
def doubles(director):
    return EventFactory(director=director, style="doubles")


def names_of_teams(event) -> dict[str, list[str]]:
    return {
        team.name: sorted(e.name for e in team.members.all())
        for team in Team.objects.filter(event=event)
    }


class TestImport:
    def test_a_team_column_ties_two_rows(self, doubles, director):
        text = "Name,ACC #,Team\nAnn Ash,A1,Aces\nBo Birch,,aces\nCy Cole,,Kings\nDi Dunn,,Kings\n"
        result = entries_import_csv(event=doubles, text=text, user=director)
        assert len(result.entries) == 4 and result.teams == 2
        assert "2 teams made" in result.message
        assert names_of_teams(doubles) == {
            "Aces": ["Ann Ash", "Bo Birch"],
            "Kings": ["Cy Cole", "Di Dunn"],
        }

    def test_a_partner_column_puts_both_on_one_row(self, doubles, director):
        text = "Player 1;Player 2;Partner ACC #\nAnn Ash;Bo Birch;B2\nCy Cole;Di Dunn;\n"
        result = entries_import_csv(event=doubles, text=text, user=director)
        assert result.teams == 2
        assert names_of_teams(doubles) == {
            "Ann Ash & Bo Birch": ["Ann Ash", "Bo Birch"],
            "Cy Cole & Di Dunn": ["Cy Cole", "Di Dunn"],
        }
        assert Entry.objects.get(event=doubles, player__acc_number="B2").name == "Bo Birch"

    def test_sent_again_with_one_partner_already_entered(self, doubles, director):
        EntryFactory(event=doubles, player=PlayerFactory(name="Ann Ash"))
        text = "Name,Partner\nAnn Ash,Bo Birch\n"
        result = entries_import_csv(event=doubles, text=text, user=director)
        assert [e.name for e in result.entries] == ["Bo Birch"] and result.teams == 1
        again = entries_import_csv(event=doubles, text=text, user=director)
        assert again.teams == 0 and Team.objects.count() == 1

    def test_a_team_of_three_is_refused_and_nothing_saved(self, doubles, director):
        text = "Name,Team\nAnn Ash,Aces\nBo Birch,Aces\nCy Cole,Aces\nDi Dunn,Kings\n"
        with pytest.raises(ImportRowErrors) as refused:
            entries_import_csv(event=doubles, text=text, user=director)
        messages = [m for _, _, m in refused.value.errors]
        assert any("has 3 (rows 2, 3, 4)" in m for m in messages)
        assert any("has 1 (row 5)" in m for m in messages)
        assert not Entry.objects.filter(event=doubles).exists() and not Team.objects.exists()

    def test_a_singles_event_refuses_a_list_of_teams(self, director):
        singles = EventFactory(director=director)
        with pytest.raises(ServiceError) as refused:
            entries_import_csv(event=singles, text="Name,Partner\nA a,B b\n", user=director)
        assert refused.value.code == "singles_event"
        assert not Entry.objects.filter(event=singles).exists()

    def test_a_singles_list_is_read_as_before(self, director):
        singles = EventFactory(director=director)
        result = entries_import_csv(event=singles, text="Name\nA a\nB b\n", user=director)
        assert len(result.entries) == 2 and result.teams == 0


class TestPairUp:
    def test_two_entered_players_make_a_team_once(self, doubles, director):
        ann, bo, cy = EntryFactory.create_batch(3, event=doubles)
        team = team_form(event=doubles, entries=[ann, bo], user=director, name="Pegs")
        assert entrant_of(ann).name == "Pegs" and entrant_of(team).team_id == team.pk
        assert [p.pk for p in entrant_of(bo).players] == [ann.player_id, bo.player_id]
        assert entrant_of(cy).name == cy.name and entrant_of(cy).team_id is None
        names = entry_team_names(entries=Entry.objects.filter(event=doubles))
        assert names == {ann.pk: "Pegs", bo.pk: "Pegs", cy.pk: cy.name}
        with pytest.raises(ServiceError) as refused:
            team_form(event=doubles, entries=[bo, cy], user=director)
        assert refused.value.code == "already_in_team"
        assert AuditEntry.objects.filter(action="team_form").count() == 1

    def test_a_withdrawn_player_or_another_events_is_refused(self, doubles, director):
        ann = EntryFactory(event=doubles)
        gone = EntryFactory(event=doubles, status=Entry.Status.WITHDRAWN)
        elsewhere = EntryFactory(event=EventFactory(style="doubles"))
        for other, code in ((gone, "withdrawn"), (elsewhere, "other_event"), (ann, "team_size")):
            with pytest.raises(ServiceError) as refused:
                team_form(event=doubles, entries=[ann, other], user=director)
            assert refused.value.code == code
        assert not Team.objects.exists()


class TestManagePage:
    def test_the_director_enters_a_team_and_pairs_two_players(self, doubles, director):
        client = client_for(director)
        page = client.get(f"/events/{doubles.pk}/manage/")
        assert "Enter a team" in page.content.decode()
        response = client.post(
            f"/events/{doubles.pk}/teams/add/",
            {"name_1": "Ann Ash", "name_2": "Bo Birch", "team_name": "", "check_in": "on"},
        )
        assert response.status_code == 302
        assert names_of_teams(doubles) == {"Ann Ash & Bo Birch": ["Ann Ash", "Bo Birch"]}
        cy, di = EntryFactory.create_batch(2, event=doubles)
        page = client.get(f"/events/{doubles.pk}/manage/").content.decode()
        assert "Without a partner" in page and "Make the team" in page
        response = client.post(
            f"/events/{doubles.pk}/teams/pair-up/",
            {"first": cy.pk, "second": di.pk, "team_name": "Late Pair"},
        )
        assert response.status_code == 302 and "Late Pair" in names_of_teams(doubles)

    def test_a_refused_team_is_shown_on_the_form(self, doubles, director):
        PlayerFactory(name="Ann Ash", acc_number="A1")
        client = client_for(director)
        response = client.post(
            f"/events/{doubles.pk}/teams/add/",
            {"name_1": "Bo Birch", "acc_number_1": "A1", "name_2": "Cy Cole"},
        )
        assert response.status_code == 400
        assert "belongs to Ann Ash" in response.content.decode()
        assert not Entry.objects.filter(event=doubles).exists()

    def test_another_director_cannot_enter_a_team(self, doubles):
        client = client_for(UserFactory())
        response = client.post(
            f"/events/{doubles.pk}/teams/add/", {"name_1": "Ann Ash", "name_2": "Bo Birch"}
        )
        assert response.status_code in (403, 404)
        assert not Entry.objects.filter(event=doubles).exists()

    def test_a_singles_event_shows_no_team_form(self, director):
        singles = EventFactory(director=director)
        page = client_for(director).get(f"/events/{singles.pk}/manage/").content.decode()
        assert "Enter a team" not in page
