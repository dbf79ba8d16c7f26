"""A club's history (issue 27): every write a person makes to a club (its making, settings,
directors, invitations to direct it, its recognition, a merge into it) is exactly one row,
written in the same transaction; a refused write adds none. Its page and API are for the
club's directors and the ACC office."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.factories import ClubFactory, UserFactory
from tests.helpers import client_for
from tournaments.errors import ServiceError
from tournaments.models import Club, ClubAuditEntry, Invitation
from tournaments.services.club_recognition import club_recognition_request
from tournaments.services.clubs import (
    club_create,
    club_director_add,
    club_director_remove,
    club_update_settings,
)
from tournaments.services.clubs_admin import club_merge
from tournaments.services.invitations import (
    invitation_accept,
    invitation_send,
    invitation_withdraw,
)

pytestmark = pytest.mark.django_db


def _rows(club) -> list[tuple[str, str]]:
    return list(
        ClubAuditEntry.objects.filter(club=club).order_by("id").values_list("kind", "action")
    )


def _one_more(club, action, expected: str) -> ClubAuditEntry:
    before = ClubAuditEntry.objects.filter(club=club).count()
    action()
    assert ClubAuditEntry.objects.filter(club=club).count() == before + 1
    row = ClubAuditEntry.objects.filter(club=club).latest("id")
    assert row.action == expected
    return row


def test_each_club_write_is_one_row(django_capture_on_commit_callbacks):
    director = UserFactory(first_name="Cleo", last_name="Club")
    club = club_create(name="Harbour Pegs", user=director)
    assert _rows(club) == [("settings", "club_create")]
    made = ClubAuditEntry.objects.get(club=club)
    assert made.actor == director and made.after["recognised"] is False

    row = _one_more(
        club, lambda: club_update_settings(club=club, user=director, city="Halifax", night_games=7),
        "club_update_settings",
    )  # fmt: skip
    assert row.before == {"city": "", "night_games": 9}
    assert row.after == {"city": "Halifax", "night_games": 7}
    assert row.actor_name == "Cleo Club" and "city" in row.summary
    club_update_settings(club=club, user=director, city="Halifax")  # nothing changed
    with pytest.raises(ServiceError):
        club_update_settings(club=club, user=director, night_games=0)
    assert ClubAuditEntry.objects.filter(club=club).count() == 2

    other = UserFactory(username="dana")
    row = _one_more(
        club, lambda: club_director_add(club=club, actor=director, person="dana"),
        "club_director_add",
    )  # fmt: skip
    assert row.after == {"user": "dana", "director": True} and row.kind == "roles"
    club_director_add(club=club, actor=director, person="dana")  # directs already: no change
    with pytest.raises(ServiceError):
        club_director_add(club=club, actor=UserFactory(), person="dana")
    assert ClubAuditEntry.objects.filter(club=club).count() == 3

    removed = _one_more(
        club, lambda: club_director_remove(club=club, actor=director, user_id=other.pk),
        "club_director_remove",
    )  # fmt: skip
    assert removed.after == {"user": "dana", "director": False}
    with pytest.raises(ServiceError, match="add another director first"):
        club_director_remove(club=club, actor=director, user_id=director.pk)
    with pytest.raises(ServiceError, match="does not direct this club"):
        club_director_remove(club=club, actor=director, user_id=other.pk)
    assert ClubAuditEntry.objects.filter(club=club).count() == 4
    club_director_add(club=club, actor=director, person="dana")  # back again: a fifth row

    with django_capture_on_commit_callbacks(execute=True):
        sent = _one_more(
            club,
            lambda: invitation_send(actor=other, club=club, email="eve@example.org", role=""),
            "invitation_send",
        )
    assert sent.after["email"] == "eve@example.org"
    invitation = Invitation.objects.get(club=club, email="eve@example.org")
    _one_more(club, lambda: invitation_withdraw(actor=director, invitation=invitation),
              "invitation_withdraw")  # fmt: skip
    with django_capture_on_commit_callbacks(execute=True):
        second = invitation_send(actor=director, club=club, email="fay@example.org", role="")
    fay = UserFactory(username="fay")
    taken = _one_more(club, lambda: invitation_accept(invitation=second, user=fay),
                      "invitation_accept")  # fmt: skip
    assert taken.actor == fay and taken.after["held"] is True

    _one_more(club, lambda: club_recognition_request(club=club, user=director),
              "club_recognition_request")  # fmt: skip


def test_a_merge_moves_the_history_and_says_so():
    admin = UserFactory(is_staff=True)
    keep = ClubFactory(name="Pine Pegs")
    merge = ClubFactory(name="Pine Pegz", recognised=False)
    merged_rows = ClubAuditEntry.objects.filter(club=merge).count()
    kept_rows = ClubAuditEntry.objects.filter(club=keep).count()
    club_merge(keep=keep, merge=merge, user=admin)
    assert not Club.objects.filter(pk=merge.pk).exists()
    assert ClubAuditEntry.objects.filter(club=keep).count() == kept_rows + merged_rows + 1
    row = ClubAuditEntry.objects.filter(club=keep).latest("id")
    assert row.action == "club_merge" and row.before["club"] == "Pine Pegz"


def test_the_history_page_and_api_are_for_its_directors_and_the_office():
    club = ClubFactory(name="Harbour Pegs", recognised=False)
    director, office, stranger = club.director, UserFactory(is_staff=True), UserFactory()
    club_update_settings(club=club, user=director, city="Halifax")
    url = f"/api/v1/clubs/{club.pk}/history/"
    rows = client_for(director).get(url).json()
    assert [r["action"] for r in rows["results"]] == ["club_update_settings", "club_create"]
    only = client_for(office).get(url, {"kind": "settings"}).json()
    assert only["count"] == 2
    assert client_for(office).get(url, {"kind": "nothing"}).status_code == 400
    assert client_for(stranger).get(url).status_code == 403
    assert client_for().get(url).status_code in (401, 403)
    for user, status in ((director, 200), (office, 200), (stranger, 403)):
        page = Client()
        page.force_login(user)
        answer = page.get(f"/clubs/{club.pk}/history/")
        assert answer.status_code == status
        if status == 200:
            text = answer.content.decode()
            assert "Settings changed: city" in text and "2 actions" in text
    assert Client().get(f"/clubs/{club.pk}/history/").status_code == 302  # to sign in


def test_a_director_is_removed_on_the_club_page():
    club = ClubFactory(name="Harbour Pegs", recognised=False)
    second = UserFactory(first_name="Dana", last_name="Deal")
    club_director_add(club=club, actor=club.director, person=second.username)
    page = Client()
    page.force_login(club.director)
    shown = page.get(f"/clubs/{club.pk}/").content.decode()
    assert "Remove Dana Deal as a director" in shown
    done = page.post(f"/clubs/{club.pk}/directors/{second.pk}/remove/", follow=True)
    assert "they no longer direct the club" in done.content.decode()
    last = page.post(f"/clubs/{club.pk}/directors/{club.director.pk}/remove/", follow=True)
    assert "A club needs a director: add another director first" in last.content.decode()
    assert list(club.roles.values_list("user_id", flat=True)) == [club.director.pk]
