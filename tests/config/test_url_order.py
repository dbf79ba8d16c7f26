"""The hottest routes come first in ``tournaments/urls.py`` (each request tries the routes in
order, and a spectator's reload tried 134 before the standings): moved first, they must match
only their own paths, so that no route before or after them is shadowed."""

from __future__ import annotations

import pytest
from django.urls import URLResolver, get_resolver, include, path


def _matching(patterns, path: str) -> list[str]:
    """Every route of the whole tree that matches ``path`` (not only the first)."""
    found = []
    for pattern in patterns:
        match = pattern.pattern.match(path)
        if not match:
            continue
        if isinstance(pattern, URLResolver):
            found += _matching(pattern.url_patterns, match[0])
        else:
            found.append(pattern.name)
    return found


@pytest.mark.parametrize(
    "path, name",
    [
        ("r/Ab_9-xYz/", "player-page"),
        ("events/12/standings/", "standings"),
    ],
)
def test_a_route_placed_first_matches_its_own_paths_alone(path, name):
    assert _matching(get_resolver().url_patterns, path) == [name]


def test_the_walk_finds_every_route_that_matches():
    """The check above could pass by finding one route of two: a path two routes take (one
    inside an include) is found twice."""

    def view(request):
        raise AssertionError

    inner = [path("<str:y>/", view, name="two")]
    routes = [path("a/<int:x>/", view, name="one"), path("a/", include(inner))]
    assert _matching(routes, "a/1/") == ["one", "two"]
    assert _matching(routes, "a/b/") == ["two"]
