"""Roles: directors give and take back director, cross-checker and judge roles, by page and
by API, finding people by user name or name; the last director stays; people are shown by
name."""

import pytest

from tests.factories import EventFactory, PlayerFactory, UserFactory
from tests.helpers import client_for
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, EventRole
from tournaments.services.roles import event_role_grant, event_role_revoke

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    director = UserFactory(username="dora", first_name="Dora", last_name="Director")
    event = EventFactory(director=director)
    event.director = director
    return event


def test_people_are_found_by_user_name_or_by_name(event):
    judy = UserFactory(username="jj42", first_name="Judy", last_name="Jones")
    carl = UserFactory(username="carl")
    PlayerFactory(name="Carl Checker", user=carl)
    assert (
        event_role_grant(event=event, actor=event.director, person="JJ42", role="judge").user
        == judy
    )
    assert (
        event_role_grant(
            event=event, actor=event.director, person=" judy  jones", role="judge"
        ).user
        == judy
    )
    grant = event_role_grant(
        event=event, actor=event.director, person="carl checker", role="cross_checker"
    )
    assert grant.user == carl
    assert EventRole.objects.filter(event=event, user=judy, role="judge").count() == 1


def test_no_match_and_several_matches_are_refused_with_names(event):
    UserFactory(username="sam1", first_name="Sam", last_name="Smith")
    UserFactory(username="sam2", first_name="Sam", last_name="Smith")
    with pytest.raises(ServiceError) as several:
        event_role_grant(event=event, actor=event.director, person="Sam Smith", role="judge")
    assert several.value.code == "several_people"
    assert "sam1" in several.value.message and "sam2" in several.value.message
    with pytest.raises(ServiceError) as missing:
        event_role_grant(event=event, actor=event.director, person="Smith", role="judge")
    assert missing.value.code == "no_such_person" and "Did you mean" in missing.value.message
    assert not EventRole.objects.filter(role="judge").exists()


def test_the_last_director_cannot_remove_themselves(event):
    own = EventRole.objects.get(event=event, user=event.director)
    with pytest.raises(ServiceError) as refused:
        event_role_revoke(event=event, actor=event.director, grant_id=own.pk)
    assert refused.value.code == "last_director" and "yourself" in refused.value.message
    UserFactory(username="dora2")
    event_role_grant(event=event, actor=event.director, person="dora2", role="director")
    event_role_revoke(event=event, actor=event.director, grant_id=own.pk)
    assert not EventRole.objects.filter(pk=own.pk).exists()


def test_roles_by_api(event):
    UserFactory(username="jj", first_name="Judy", last_name="Jones")
    api = client_for(event.director)
    url = f"/api/v1/events/{event.pk}/roles/"
    made = api.post(url, {"person": "Judy Jones", "role": "judge"}, format="json")
    assert made.status_code == 201
    assert (made.json()["name"], made.json()["username"]) == ("Judy Jones", "jj")
    assert api.post(url, {"person": "jj", "role": "judge"}, format="json").status_code == 200
    listed = api.get(url).json()
    assert [(r["name"], r["role"]) for r in listed] == [
        ("Dora Director", "director"),
        ("Judy Jones", "judge"),
    ]
    assert api.delete(f"{url}{made.json()['id']}/").status_code == 204
    own = listed[0]["id"]
    refused = api.delete(f"{url}{own}/")
    assert refused.status_code == 400 and refused.json()["errors"][0]["code"] == "last_director"
    stranger = UserFactory()
    EventFactory(director=stranger)
    assert client_for(stranger).get(url).status_code == 403
    assert client_for(stranger).post(url, {"person": "jj", "role": "director"}).status_code == 403
    assert client_for().get(url).status_code in (401, 403)
    actions = list(AuditEntry.objects.filter(kind="roles").values_list("action", flat=True))
    assert actions == ["event_role_revoke", "event_role_grant", "event_role_grant"]


def test_the_manage_page_lists_roles_by_name_and_gives_them(client, event):
    UserFactory(username="jj", first_name="Judy", last_name="Jones")
    client.force_login(event.director)
    page = client.get(f"/events/{event.pk}/manage/").content.decode()
    title = page.split("<title>")[1].split("</title>")[0]
    assert "<" not in title and "Directors, cross-checkers and judges" in page
    assert "Dora Director" in page
    answer = client.post(
        f"/events/{event.pk}/roles/", {"person": "Judy Jones", "role": "judge"}, follow=True
    )
    assert "Judy Jones is now judge" in answer.content.decode()
    grant = EventRole.objects.get(event=event, role="judge")
    answer = client.post(f"/events/{event.pk}/roles/{grant.pk}/remove/", follow=True)
    assert "Judy Jones is no longer judge" in answer.content.decode()
