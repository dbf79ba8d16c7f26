"""A private link's path (``/r/<token>/...``, ``/api/v1/report/<token>/...``, an event's check-in
code) with a character a link never has (a NUL byte, a percent sign, a space, a letter outside
ASCII) or more than 64 characters is a 404 before any query, whatever the method: PostgreSQL
refuses a NUL in a string, which was a server error for anonymous visitors."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient

from tests.factories import UserFactory
from tournaments.converters import LinkConverter

pytestmark = pytest.mark.django_db

ROUTES = [
    "/r/{}/",
    "/r/{}/match/",
    "/r/{}/judge/",
    "/api/v1/report/{}/",
    "/api/v1/report/{}/match/",
    "/events/1/check-in/{}/",
    "/invitations/{}/",
    "/registration/{}/",
    "/registration/{}/change/",
    "/registration/{}/withdraw/",
    "/registration/{}/take/1/",
    "/registration/{}/give-up/1/",
    "/api/v1/registrations/private/{}/withdraw/",
    "/api/v1/registrations/private/{}/take/1/",
    "/api/v1/registrations/private/{}/give-up/1/",
]
# Read only: a POST there is a 405 before any lookup.
READ_ONLY_ROUTES = ["/api/v1/registrations/private/{}/"]
METHODS = ["get", "post", "put", "patch", "delete", "head", "options"]
# As they travel in a URL: percent-encoded, the server decodes them into the path.
NOT_A_LINK = {
    "nul": "%00",
    "nul inside": "Ab-9_%00xYz",
    "percent": "%25",
    "space": "Ab%209",
    "unicode": "caf%C3%A9",
    "right-to-left mark": "Ab%E2%80%8F9",
    "dot": "Ab.9",
    "too long": "A" * 65,
}


def _walk(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), getattr(pattern.pattern, "converters", {})


@pytest.mark.parametrize("route", ROUTES + READ_ONLY_ROUTES)
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("value", NOT_A_LINK.values(), ids=NOT_A_LINK.keys())
def test_a_path_no_link_can_have_is_a_404_before_any_query(
    route, method, value, django_assert_num_queries
):
    client = APIClient() if route.startswith("/api/") else Client()
    with django_assert_num_queries(0):
        response = getattr(client, method)(route.format(value))
    assert response.status_code == 404


@pytest.mark.parametrize("route", ROUTES)
def test_a_well_formed_unknown_link_is_looked_up_and_is_a_404(route, client):
    """The counterpart: the same request with a link that could exist reaches the database
    (so the test above counts queries that would be made) and is a plain 404 too."""
    client.force_login(UserFactory())
    with CaptureQueriesContext(connection) as queries:
        response = client.post(route.format("Ab-9_" + "x" * 40))
    assert response.status_code == 404
    assert len(queries) > 0


def test_every_token_and_code_in_a_path_is_a_link():
    """A new route naming ``<str:token>`` would let any character through again. (Django's own
    password reset link is left to Django: it decodes it without a query.)"""
    seen = []
    for route, converters in _walk(get_resolver().url_patterns):
        if route.startswith("accounts/"):
            continue
        for name in ("token", "code"):
            if name in converters:
                assert isinstance(converters.get(name), LinkConverter), route
                seen.append(route)
    assert len(seen) == len(ROUTES) + len(READ_ONLY_ROUTES), seen


def test_the_schema_gives_the_links_pattern(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    for path in ("/api/v1/report/{token}/", "/api/v1/report/{token}/match/"):
        for operation in schema["paths"][path].values():
            (token,) = [p for p in operation["parameters"] if p["name"] == "token"]
            assert token["schema"]["pattern"] == "^[A-Za-z0-9_-]{1,64}$"
            assert token["schema"]["maxLength"] == 64


def test_a_real_link_still_opens(event_in_play, client):
    entry = event_in_play(10).entries.first()
    assert client.get(f"/r/{entry.report_token}/").status_code == 200
    assert APIClient().get(f"/api/v1/report/{entry.report_token}/").status_code == 200


@pytest.mark.parametrize("name", ["player-page", "api-report", "api-match-report"])
@pytest.mark.parametrize("token", ["abc", "A-b_9" * 12, "0link0", "x" * 64])
def test_a_links_path_is_the_one_reverse_gives(name, token):
    """``link_path`` builds a link's path from the route's halves kept once: the same path as
    ``reverse()``, whatever the token (even one holding the marker the halves are found by)."""
    from django.urls import reverse

    from tournaments.converters import link_path

    assert link_path(name, token) == reverse(name, kwargs={"token": token})


def test_a_token_that_is_not_a_link_has_no_path():
    from django.urls import NoReverseMatch

    from tournaments.converters import link_path

    with pytest.raises(NoReverseMatch):
        link_path("api-report", "a b")


def test_a_links_path_follows_the_url_configuration_outside_a_request(settings):
    """Outside a request (a job, a test) the settings' configuration is the one in force: a
    path kept for another configuration is not handed out."""
    from django.urls import reverse

    from tournaments.converters import link_path

    assert link_path("api-report", "abc") == reverse("api-report", kwargs={"token": "abc"})
    settings.ROOT_URLCONF = "tests.tournaments.pages.prefixed_urls"
    assert link_path("api-report", "abc") == reverse("api-report", kwargs={"token": "abc"})
