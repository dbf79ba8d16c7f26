"""The printable scorecards: one per player still in the event, each with the QR code of the
player's private link, a few to a printed page; the same queries for any size of field, and each
QR code drawn once per link."""

import re
from unittest import mock

import pytest
import segno
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments.services.links import entry_token_revoke
from tournaments.services.withdrawals import entry_withdraw
from tournaments.views.standings import (
    CARD_MM,
    LINE_MM,
    SHEET_MM,
    cards_per_sheet,
    scorecard_qr_svg,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_kept_codes():
    scorecard_qr_svg.cache_clear()
    yield
    scorecard_qr_svg.cache_clear()


def _scorecards(client, event) -> str:
    client.force_login(event.director)
    response = client.get(f"/events/{event.pk}/scorecards/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_queries_do_not_grow_with_the_field(client, event_in_play):
    counts = []
    for players in (10, 30):
        event = event_in_play(players)
        client.force_login(event.director)
        with CaptureQueriesContext(connection) as queries:
            page = client.get(f"/events/{event.pk}/scorecards/").content.decode()
        assert page.count("<svg") == players
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_each_code_is_drawn_once_per_link(client, event_in_play):
    event = event_in_play(10)
    with mock.patch("segno.make_qr", wraps=segno.make_qr) as make:
        first = _scorecards(client, event)
        assert make.call_count == 10
        again = _scorecards(client, event)
        assert make.call_count == 10  # a reprint draws nothing
    assert again == first


def test_a_new_link_gets_a_new_code_and_the_old_one_is_gone(client, event_in_play):
    event = event_in_play(10)
    entry = event.entries.order_by("pk").first()
    old = entry.report_token
    before = _scorecards(client, event)
    new = entry_token_revoke(entry=entry, user=event.director).report_token
    after = _scorecards(client, event)
    assert f"/r/{old}/" in before and f"/r/{old}/" not in after
    assert f"/r/{new}/" in after and after.count("<svg") == 10
    assert scorecard_qr_svg(f"http://testserver/r/{new}/", f"Link for {entry.player.name}") in after


def test_every_card_carries_its_players_link_and_name(client, event_in_play):
    event = event_in_play(10)
    page = _scorecards(client, event)
    for entry in event.entries.select_related("player"):
        assert f"http://testserver/r/{entry.report_token}/" in page
        assert f"<title>Link for {entry.player.name}</title>" in page
    assert 'viewBox="0 0' in page  # sized by the print style sheet, not in pixels


def test_a_withdrawn_player_gets_no_card(client, event_in_play):
    event = event_in_play(10)
    gone = event.entries.order_by("pk").first()
    entry_withdraw(entry=gone, user=event.director)
    page = _scorecards(client, event)
    assert page.count('class="scorecard"') == 9 and gone.report_token not in page


@pytest.mark.parametrize(("games", "per_page"), [(3, 3), (5, 2), (9, 2), (12, 1), (22, 1)])
def test_cards_are_grouped_a_page_at_a_time(client, event_in_play, games, per_page):
    event = event_in_play(23, qualifying_games=games)
    page = _scorecards(client, event)
    assert cards_per_sheet(games) == per_page
    assert page.count('class="sheet"') == -(-23 // per_page)  # each sheet prints on its own page
    assert page.count('class="scorecard"') == 23
    assert f"{per_page} card{'s' if per_page > 1 else ''} to a page" in page


@pytest.mark.parametrize("games", range(1, 31))
def test_a_sheet_of_cards_fits_the_page(games):
    per_page = cards_per_sheet(games)
    card = CARD_MM + LINE_MM * (games + 1)
    assert per_page * card <= SHEET_MM or per_page == 1
    assert (per_page + 1) * card > SHEET_MM  # and no room is wasted


def test_a_name_is_text_in_the_code_never_markup():
    svg = scorecard_qr_svg("https://example.org/r/abc/", "Link for Bo <b>& Co</b>")
    assert "<title>Link for Bo &lt;b&gt;&amp; Co&lt;/b&gt;</title>" in svg
    assert svg.startswith('<svg viewBox="0 0 ') and svg.count("<path") == 1


def test_the_drawing_is_exactly_the_codes_modules():
    url = "https://pegboard.example.org/r/OnghVpESycQ_XyfGuIwMHQLY_7cXPwZO/"
    matrix = segno.make_qr(url, error="m", mask=4).matrix
    path = re.search(r' d="([^"]+)"', scorecard_qr_svg(url, "x")).group(1)
    drawn, x, y = set(), 0, 0
    for move, dx, dy, length in re.findall(r"([Mm])(-?\d+) (-?[\d.]+)h(\d+)", path):
        x, y = (int(dx), float(dy)) if move == "M" else (x + int(dx), y)
        drawn |= {(int(y) - 4, x - 4 + k) for k in range(int(length))}
        x += int(length)
    dark = {(i, j) for i, row in enumerate(matrix) for j, module in enumerate(row) if module}
    assert drawn == dark
    assert f'viewBox="0 0 {len(matrix) + 8} {len(matrix) + 8}"' in scorecard_qr_svg(url, "x")
