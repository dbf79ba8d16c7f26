"""Numbers from outside are bounded: paging beyond range, ids of any length, the list of
published events answering with what the schema promises."""

import pytest
from rest_framework.test import APIClient

from tests.factories import EventFactory, UserFactory

pytestmark = pytest.mark.django_db

HUGE = "9" * 30


@pytest.mark.parametrize(
    "query",
    [
        f"limit={HUGE}",
        f"offset={HUGE}",
        "limit=0",
        "limit=-1",
        "offset=-5",
        "limit=x",
        "limit=1001",
    ],
)
def test_paging_out_of_range_is_a_400_naming_the_parameter(query):
    api = APIClient()
    api.force_authenticate(UserFactory())
    response = api.get(f"/api/v1/events/?{query}")
    assert response.status_code == 400
    assert response.json()["errors"][0]["field"] == query.split("=")[0]


def test_paging_in_range_works():
    director = UserFactory()
    for _ in range(3):
        EventFactory(director=director)
    api = APIClient()
    api.force_authenticate(director)
    page = api.get("/api/v1/events/?limit=2&offset=1").json()
    assert page["count"] == 3 and len(page["results"]) == 2


@pytest.mark.parametrize(
    "path",
    [
        f"/api/v1/events/{HUGE}/",
        f"/api/v1/events/1/games/{HUGE}/",
        f"/api/v1/jobs/{HUGE}/",
        f"/events/{HUGE}/",
        f"/players/{HUGE}/",
        f"/clubs/{HUGE}/",
    ],
)
def test_ids_of_any_length_are_not_found_never_a_server_error(client, path):
    assert client.get(path).status_code == 404


def test_the_largest_id_a_url_takes_is_simply_not_found(client):
    assert client.get(f"/events/{'9' * 18}/").status_code == 404


def test_published_events_have_every_field_the_schema_requires():
    EventFactory(published=True)
    rows = APIClient().get("/api/v1/events/?published=true").json()["results"]
    assert rows and all("created_at" not in row or row["created_at"] for row in rows)
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    listed = schema["paths"]["/api/v1/events/"]["get"]["responses"]["200"]["content"]
    page = listed["application/json"]["schema"]["$ref"].split("/")[-1]
    item = schema["components"]["schemas"][page]["properties"]["results"]["items"]["$ref"]
    required = set(schema["components"]["schemas"][item.split("/")[-1]].get("required", []))
    assert required <= set(rows[0]), required - set(rows[0])
