"""Only what the ACC office sanctioned reaches the national MRP ledger; an event it has not
sanctioned is finalised with its results kept on Pegboard, and the ledger follows the office's
later decisions."""

from __future__ import annotations

import pytest

from tests.factories import UserFactory
from tests.helpers import client_for
from tournaments.models import Job, MrpAward
from tournaments.selectors.players import LeaderboardFilters, mrp_leaderboard
from tournaments.services.ledger import event_finalise_request
from tournaments.services.sanctioning import event_sanction_grant, event_sanction_revoke

pytestmark = pytest.mark.django_db


def test_unsanctioned_is_final_here_and_out_of_the_ledger(
    finished_event, django_capture_on_commit_callbacks
):
    event = finished_event(sanctioned=False)
    api = client_for(event.director)
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(f"/api/v1/events/{event.pk}/finalise/")
    assert answer.status_code == 202
    assert Job.objects.get(pk=answer.json()["id"]).status == "succeeded"
    event.refresh_from_db()
    assert event.finalised_at is not None and not MrpAward.objects.exists()
    assert list(mrp_leaderboard(filters=LeaderboardFilters())) == []
    office = UserFactory(is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        event_sanction_grant(event=event, user=office)
    awards = MrpAward.objects.filter(event=event, current=True).count()
    assert awards > 0
    assert len(list(mrp_leaderboard(filters=LeaderboardFilters()))) == awards
    with django_capture_on_commit_callbacks(execute=True):
        event_sanction_revoke(event=event, user=office, note="Not an ACC event")
    event.refresh_from_db()
    assert not MrpAward.objects.filter(event=event, current=True).exists()
    assert MrpAward.objects.filter(event=event, current=False).count() == awards
    assert event.finalised_at is not None  # still final here


def test_the_results_page_says_where_the_results_stay(
    finished_event, client, django_capture_on_commit_callbacks
):
    event = finished_event(sanctioned=False)
    client.force_login(event.director)
    page = client.get(f"/events/{event.pk}/results/").content.decode()
    assert "Finalise the results" in page and "has not sanctioned" in page
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(f"/events/{event.pk}/finalise/", follow=True).content.decode()
    assert "not in the national MRP ledger" in done
    with django_capture_on_commit_callbacks(execute=True):
        event_finalise_request(event=event, user=event.director)  # again: nothing changes
    assert not MrpAward.objects.exists()
