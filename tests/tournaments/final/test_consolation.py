"""Making the Consolation from a Main's non-qualifiers."""

import pytest

from tests.factories import EntryFactory
from tournaments.errors import ServiceError
from tournaments.models import Entry, Event, EventRole
from tournaments.services.consolation import consolation_create

pytestmark = pytest.mark.django_db


def _main_with_dropouts(finished_main, eligibility):
    event = finished_main(consolation_eligibility=eligibility)
    late, gone = event.ranked[10], event.ranked[11]
    Entry.objects.filter(pk=late.pk).update(joined_from_game=3)
    Entry.objects.filter(pk=gone.pk).update(status="withdrawn", withdrawn_after_game=6)
    EntryFactory(event=event, status="registered")  # never played: not an entrant
    return event, late, gone


def test_every_non_qualifier_is_entered_and_checked_in(finished_main):
    event, late, gone = _main_with_dropouts(finished_main, "non_qualifiers")
    consy = consolation_create(main_event=event, user=event.director)
    assert (consy.kind, consy.preset, consy.parent_id) == (
        "consolation",
        "acc-consolation",
        event.pk,
    )
    players = set(consy.entries.values_list("player_id", flat=True))
    assert players == {e.player_id for e in event.ranked[5:]}
    assert set(consy.entries.values_list("status", flat=True)) == {"checked_in"}
    assert EventRole.objects.filter(event=consy, user=event.director, role="director").exists()


def test_finishers_only_leaves_out_late_entries_and_withdrawals(finished_main):
    event, late, gone = _main_with_dropouts(finished_main, "finishers")
    consy = consolation_create(main_event=event, user=event.director)
    players = set(consy.entries.values_list("player_id", flat=True))
    assert players == {e.player_id for e in event.ranked[5:]} - {late.player_id, gone.player_id}


def test_a_second_call_returns_the_same_consolation(finished_main):
    event = finished_main()
    first = consolation_create(main_event=event, user=event.director)
    second = consolation_create(main_event=event, user=event.director)
    assert first.pk == second.pk
    assert Event.objects.filter(parent=event, kind="consolation").count() == 1
    assert second.entries.count() == 15


def test_no_consolation_before_the_cut(event_in_play):
    event = event_in_play(10)
    Event.objects.filter(pk=event.pk).update(kind="main")
    event.refresh_from_db()
    with pytest.raises(ServiceError, match="Make the cut first"):
        consolation_create(main_event=event, user=event.director)
    assert not Event.objects.filter(parent=event).exists()


def test_the_results_button_and_the_api_make_it_once(client, finished_main):
    event = finished_main()
    client.force_login(event.director)
    page = client.get(f"/events/{event.pk}/results/").content.decode()
    assert f"/events/{event.pk}/consolation/" in page
    response = client.post(f"/events/{event.pk}/consolation/")
    consy = Event.objects.get(parent=event)
    assert response.status_code == 302 and response["Location"] == f"/events/{consy.pk}/manage/"
    again = client.post(f"/api/v1/events/{event.pk}/consolation/")
    assert again.status_code == 200 and again.json()["id"] == consy.pk
    assert again.json()["entries"] == 15
