"""A correction or void that reopens a finalised event's final says so: in the answer (page
message, API field), on the manage page until it is finalised again, and in the history
(issue 22, item 11)."""

import pytest

from tests.helpers import client_for
from tournaments.models import AuditEntry, Event, Match, MatchGame
from tournaments.services.ledger import event_finalise_request
from tournaments.services.playoffs_matches import match_game_report

pytestmark = pytest.mark.django_db


@pytest.fixture
def finalised(finished_event, django_capture_on_commit_callbacks):
    event = finished_event()
    with django_capture_on_commit_callbacks(execute=True):
        event_finalise_request(event=event, user=event.director)
    event.refresh_from_db()
    assert event.finalised_at is not None
    final = Match.objects.filter(playoff__event=event).order_by("-round").first()
    event.last_game = MatchGame.objects.filter(match=final).order_by("-number").first()
    return event


def _manage(client, event) -> str:
    return client.get(f"/events/{event.pk}/manage/").content.decode()


def test_a_void_on_the_page_says_the_results_are_no_longer_final(
    client, finalised, django_capture_on_commit_callbacks
):
    event, game = finalised, finalised.last_game
    client.force_login(event.director)
    assert "no longer final" not in _manage(client, event)
    url = f"/events/{event.pk}/matches/{game.match_id}/games/{game.number}/void/"
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, {f"v{game.number}-reason": "wrong table"}, follow=True)
    page = answer.content.decode()
    assert "Game" in page and "no longer final" in page and "Finalise again" in page
    assert Event.objects.get(pk=event.pk).finalised_at is None
    manage = _manage(client, event)
    assert "The results are no longer final" in manage
    assert f'href="/events/{event.pk}/results/"' in manage
    history = list(AuditEntry.objects.filter(event=event).values_list("action", "summary"))
    actions = [action for action, _ in history]
    assert "event_unfinalised" in actions and "match_game_void" in actions
    void_summary = next(s for a, s in history if a == "match_game_void")
    assert "no longer final" in void_summary


def test_the_api_answer_says_so_and_the_banner_goes_once_final_again(
    client, finalised, django_capture_on_commit_callbacks
):
    event, game = finalised, finalised.last_game
    api = client_for(event.director)
    base = f"/api/v1/events/{event.pk}/matches/{game.match_id}/games/{game.number}"
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(f"{base}/void/", {"reason": "wrong table"})
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["unfinalised"] is True and "Finalise again" in body["unfinalised_message"]
    client.force_login(event.director)
    assert "The results are no longer final" in _manage(client, event)
    # A new game decides the final again; the banner stays until the director finalises.
    match = Match.objects.get(pk=game.match_id)
    winner, loser = match.entry_a, match.entry_b
    with django_capture_on_commit_callbacks(execute=True):
        match_game_report(match=match, entry=winner, won=True, spread=12)
        match_game_report(match=match, entry=loser, won=False, spread=12)
    assert Match.objects.get(pk=match.pk).status == Match.Status.DECIDED
    assert "The results are no longer final" in _manage(client, event)
    with django_capture_on_commit_callbacks(execute=True):
        event_finalise_request(event=event, user=event.director)
    assert "no longer final" not in _manage(client, event)


def test_a_correction_that_keeps_the_final_decided_says_nothing(
    finalised, django_capture_on_commit_callbacks
):
    event, game = finalised, finalised.last_game
    match = Match.objects.get(pk=game.match_id)
    api = client_for(event.director)
    base = f"/api/v1/events/{event.pk}/matches/{match.pk}/games/{game.number}"
    with django_capture_on_commit_callbacks(execute=True):
        answer = api.post(
            f"{base}/correct/", {"winner": game.winner_id, "margin": 31, "reason": "recounted"}
        )
    assert answer.status_code == 200, answer.content
    assert (answer.json()["unfinalised"], answer.json()["unfinalised_message"]) == (False, "")
    assert Event.objects.get(pk=event.pk).finalised_at is not None
