"""Every CSV the site serves opens in a spreadsheet as text: names planted with formula prefixes
(= + - @, tab, carriage return) come out quoted, whichever file they are in. The files are found
from the URL conf, so a new CSV is checked without being listed here."""

import csv
import io
import re

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests.tournaments.ledger.test_pages import finalised  # noqa: F401  (a fixture)
from tournaments.models import Club

pytestmark = pytest.mark.django_db

PLANTED = ['=HYPERLINK("http://x","y")', "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rcmd"]
NUMBER = re.compile(r"^-?\d+(\.\d+)?$")


def _csv_routes(patterns=None, prefix=""):
    for pattern in patterns if patterns is not None else get_resolver().url_patterns:
        if isinstance(pattern, URLResolver):
            yield from _csv_routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern) and str(pattern.pattern).endswith(".csv"):
            yield prefix + str(pattern.pattern)


def test_every_csv_route_neutralises_planted_formulas(client, finalised):  # noqa: F811
    event = finalised()
    for n, entry in enumerate(event.entries.select_related("player")):
        entry.player.name = f"{PLANTED[n % len(PLANTED)]} {n}"
        entry.player.save(update_fields=["name"])
    Club.objects.filter(pk=event.club_id).update(name="=cmd|' /C calc'!A0")
    client.force_login(event.director)
    routes = sorted(_csv_routes())
    assert len(routes) >= 3, routes
    for route in routes:
        url = "/" + re.sub(r"<\w+:event_id>", str(event.pk), route)
        response = client.get(url)
        assert response.status_code == 200, url
        cells = [cell for row in csv.reader(io.StringIO(response.content.decode())) for cell in row]
        for cell in cells:
            if cell[:1] in ("=", "+", "-", "@", "\t", "\r") and not NUMBER.match(cell):
                pytest.fail(f"{url}: the cell {cell!r} would run as a formula")
        rows = list(csv.reader(io.StringIO(response.content.decode())))
        if len(rows) > 1:  # a file with players in it shows their names, quoted
            assert any(cell.startswith("'=HYPERLINK") for cell in cells), url
