"""Who may see the results, set the money and make the Consolation."""

import pytest

from tests.factories import EventFactory, UserFactory
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(finished_main):
    return finished_main()


@pytest.fixture
def other_director():
    user = UserFactory()
    EventFactory(director=user)
    return user


READS = ["results/", "results.csv", "payouts.csv"]


@pytest.mark.parametrize("path", READS)
def test_the_director_reads_unpublished_results(client, event, path):
    client.force_login(event.director)
    assert client.get(f"/events/{event.pk}/{path}").status_code == 200


@pytest.mark.parametrize("path", READS)
def test_others_see_results_only_once_published(client, event, other_director, path):
    url = f"/events/{event.pk}/{path}"
    assert client.get(url).status_code == 404
    client.force_login(other_director)
    assert client.get(url).status_code == 404
    Event.objects.filter(pk=event.pk).update(published=True)
    assert client.get(url).status_code == 200
    client.logout()
    assert client.get(url).status_code == 200


def test_api_results_follow_publication(client, event):
    url = f"/api/v1/events/{event.pk}/results/"
    assert client.get(url).status_code == 404
    Event.objects.filter(pk=event.pk).update(published=True)
    assert client.get(url).status_code == 200


def test_published_results_hide_the_director_buttons(client, event):
    Event.objects.filter(pk=event.pk).update(published=True)
    page = client.get(f"/events/{event.pk}/results/").content.decode()
    assert "/consolation/" not in page and "/money/" not in page


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("get", "money/", 200),
        ("post", "money/", 400),  # an empty form, answered with its errors
        ("post", "money/adjust/", 302),
        ("post", "consolation/", 302),
    ],
)
def test_only_the_director_manages_money_and_the_consolation(
    client, event, other_director, method, path, allowed
):
    url = f"/events/{event.pk}/{path}"
    anonymous = getattr(client, method)(url)
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    client.force_login(other_director)
    assert getattr(client, method)(url).status_code == 403
    client.force_login(event.director)
    assert getattr(client, method)(url).status_code == allowed
    assert Event.objects.filter(parent=event).count() == (1 if path == "consolation/" else 0)


def test_api_consolation_needs_the_events_director(client, event, other_director):
    url = f"/api/v1/events/{event.pk}/consolation/"
    assert client.post(url).status_code in (401, 403)
    client.force_login(other_director)
    assert client.post(url).status_code == 403
    assert not Event.objects.filter(parent=event).exists()
    client.force_login(event.director)
    assert client.post(url).status_code == 201
