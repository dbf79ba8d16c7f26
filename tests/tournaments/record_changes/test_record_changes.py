"""A player's record (name, ACC number) is the person's across events: a director of one
event proposes a change to it; an administrator or the player approves it."""

from __future__ import annotations

import pytest

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tests.helpers import client_for
from tournaments.errors import ServiceError
from tournaments.models import Player, RecordChange
from tournaments.services.record_changes import (
    player_record_change,
    record_change_approve,
    record_change_decline,
    record_change_withdraw,
)

pytestmark = pytest.mark.django_db


def _event_directed_by(director):
    event = EventFactory(director=director)
    event.director = director
    return event


@pytest.fixture
def shared():
    """A player entered by two directors: Ann's record is theirs to share."""
    ann = PlayerFactory(name="Ann Able", acc_number="")
    first, second = UserFactory(), UserFactory()
    for director in (first, second):
        EntryFactory(event=_event_directed_by(director), player=ann)
    return ann, first, second


def test_a_record_only_one_director_uses_changes_at_once():
    director = UserFactory()
    ann = PlayerFactory(name="Ann Able", acc_number="")
    EntryFactory(event=_event_directed_by(director), player=ann)
    (change,) = player_record_change(player=ann, user=director, acc_number="A-7")
    ann.refresh_from_db()
    assert ann.acc_number == "A-7" and change.status == "applied" and change.old_value == ""


def test_a_shared_record_waits_for_the_player_or_an_administrator(shared):
    ann, first, second = shared
    (change,) = player_record_change(player=ann, user=first, acc_number="A-7")
    ann.refresh_from_db()
    assert change.status == "pending" and ann.acc_number == ""
    with pytest.raises(ServiceError, match="already waits"):
        player_record_change(player=ann, user=second, acc_number="A-8")
    with pytest.raises(ServiceError, match="administrator or the player"):
        record_change_approve(change=change, user=second)
    record_change_approve(change=change, user=UserFactory(is_staff=True))
    ann.refresh_from_db()
    assert ann.acc_number == "A-7"


def test_the_player_decides_about_their_own_record(shared):
    ann, first, _ = shared
    me = UserFactory()
    Player.objects.filter(pk=ann.pk).update(user=me)
    ann.refresh_from_db()
    (change,) = player_record_change(player=ann, user=first, name="Anne Able")
    with pytest.raises(ServiceError, match="Say why"):
        record_change_decline(change=change, user=me, note="")
    record_change_decline(change=change, user=me, note="My name is Ann")
    ann.refresh_from_db()
    change.refresh_from_db()
    assert ann.name == "Ann Able" and change.status == "declined" and change.decided_by == me
    (mine,) = player_record_change(player=ann, user=me, acc_number="A-1")
    assert mine.status == "applied"


def test_a_linked_record_is_not_one_directors_alone():
    director, me = UserFactory(), UserFactory()
    ann = PlayerFactory(name="Ann Able", acc_number="", user=me)
    EntryFactory(event=_event_directed_by(director), player=ann)
    (change,) = player_record_change(player=ann, user=director, acc_number="A-7")
    assert change.status == "pending"


def test_the_proposer_withdraws(shared):
    ann, first, second = shared
    (change,) = player_record_change(player=ann, user=first, acc_number="A-7")
    with pytest.raises(ServiceError, match="Only the director who asked"):
        record_change_withdraw(change=change, user=second)
    record_change_withdraw(change=change, user=first)
    assert RecordChange.objects.get().status == "withdrawn"


def test_bad_values_are_refused_naming_the_field(shared):
    ann, first, _ = shared
    PlayerFactory(name="Bob Bee", acc_number="B-1")
    with pytest.raises(ServiceError, match="belongs to Bob Bee") as taken:
        player_record_change(player=ann, user=first, acc_number="B-1")
    assert taken.value.field == "acc_number"
    with pytest.raises(ServiceError, match="line break") as broken:
        player_record_change(player=ann, user=first, name="Ann\r\nBcc: x@example.org")
    assert broken.value.field == "name"
    assert not RecordChange.objects.exists()


def test_the_api_answers_200_when_changed_and_202_when_proposed(shared):
    ann, first, _ = shared
    api = client_for(first)
    proposed = api.patch(f"/api/v1/players/{ann.pk}/", {"acc_number": "A-9"})
    assert proposed.status_code == 202, proposed.json()
    (change,) = proposed.json()["changes"]
    assert change["status"] == "pending" and change["new_value"] == "A-9"
    assert api.get(f"/api/v1/players/{ann.pk}/").json()["acc_number"] == ""
    unknown = api.patch(f"/api/v1/players/{ann.pk}/", {"email": "a@example.org"})
    assert unknown.status_code == 400 and unknown.json()["errors"][0]["field"] == "email"
    admin = client_for(UserFactory(is_staff=True))
    listed = admin.get("/api/v1/players/changes/?status=pending").json()["results"]
    assert [c["id"] for c in listed] == [change["id"]]
    assert api.post(f"/api/v1/players/changes/{change['id']}/approve/").status_code == 400
    approved = admin.post(f"/api/v1/players/changes/{change['id']}/approve/")
    assert approved.status_code == 200 and approved.json()["status"] == "applied"
    changed = admin.patch(f"/api/v1/players/{ann.pk}/", {"name": "Ann B. Able"})
    assert changed.status_code == 200 and changed.json()["name"] == "Ann B. Able"


def test_someone_with_no_tie_to_the_player_is_refused(shared):
    ann, _, _ = shared
    answer = client_for(UserFactory()).patch(f"/api/v1/players/{ann.pk}/", {"acc_number": "A"})
    assert answer.status_code == 403
    assert client_for().patch(f"/api/v1/players/{ann.pk}/", {"acc_number": "A"}).status_code in (
        401,
        403,
    )
    assert not RecordChange.objects.exists()


def test_the_page_says_the_change_waits(shared, client):
    ann, first, _ = shared
    client.force_login(first)
    page = client.get(f"/players/{ann.pk}/").content.decode()
    assert "Propose this change" in page
    answer = client.post(
        f"/players/{ann.pk}/record/", {"name": "Ann Able", "acc_number": "A-9"}, follow=True
    )
    text = answer.content.decode()
    assert "waits for approval" in text and "“A-9”" in text
    ann.refresh_from_db()
    assert ann.acc_number == ""
