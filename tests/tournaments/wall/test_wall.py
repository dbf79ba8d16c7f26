"""The projector wall: public for a published event only, one read model by stage (pairings
by name and standings, then the bracket from the round in play, then the champion), a live
part that answers 304 while nothing changed, and the public event page's links."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import UserFactory
from tournaments.models import Entry, Event, Match, Playoff, Table
from tournaments.selectors import wall as wall_module
from tournaments.selectors.wall import wall
from tournaments.services.playoffs import playoff_build
from tournaments.services.playoffs_matches import match_game_report
from tournaments.services.results import card_line_report

pytestmark = pytest.mark.django_db


def _publish(event):
    Event.objects.filter(pk=event.pk).update(published=True)
    event.refresh_from_db()
    return event


def _play_match(match):
    """Seat a wins every game of ``match`` until it is decided."""
    for _ in range(7):
        match.refresh_from_db()
        if match.status == Match.Status.DECIDED:
            return
        match_game_report(match=match, entry=match.entry_a, won=True, spread=20)
        match_game_report(match=match, entry=match.entry_b, won=False, spread=20)


def test_the_wall_is_public_only_once_the_event_is_published(client, event_in_play):
    event = event_in_play(10)
    Event.objects.filter(pk=event.pk).update(published=False)
    assert client.get(f"/events/{event.pk}/wall/").status_code == 404
    assert client.get(f"/events/{event.pk}/wall/?part=live").status_code == 404
    client.force_login(event.director)
    staff = client.get(f"/events/{event.pk}/wall/?part=live")
    assert staff.status_code == 200 and staff["Cache-Control"] == "private, no-cache"
    client.logout()
    _publish(event)
    page = client.get(f"/events/{event.pk}/wall/")
    html = page.content.decode()
    assert page.status_code == 200 and "<form" not in html and "<button" not in html
    assert f'data-live-url="/events/{event.pk}/wall/?part=live"' in html
    assert 'data-wall-cycle="120"' in html


def test_a_wall_poll_is_cheap_and_304_until_a_result_changes_it(
    client, event_in_play, django_capture_on_commit_callbacks
):
    event = _publish(event_in_play(10))
    first = client.get(f"/events/{event.pk}/wall/?part=live")
    assert first.status_code == 200 and first["Cache-Control"] == "no-cache"
    assert "<html" not in first.content.decode()
    with CaptureQueriesContext(connection) as queries:
        again = client.get(f"/events/{event.pk}/wall/?part=live", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304 and not again.content
    assert len(queries) == 2  # the event, then its version
    table = Table.objects.get(game__event=event, game__number=1, number=1)
    a, b = table.seats.order_by("position")
    with django_capture_on_commit_callbacks(execute=True):  # verified: the standings follow
        card_line_report(seat=a, won=True, spread=20)
        card_line_report(seat=b, won=False, spread=20)
    changed = client.get(f"/events/{event.pk}/wall/?part=live", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]


def test_the_qualifying_wall_lists_every_player_by_name_with_table_and_opponent(
    qualified_event,  # noqa: F811
):
    event = qualified_event(11, 3, last_open=True)
    shown = wall(event=event)
    assert shown.stage == "qualifying" and shown.game == 3 and not shown.game_closed
    names = [p.name for p in shown.pairings]
    assert names == sorted(names, key=str.casefold)
    assert len(names) == Entry.objects.filter(event=event).count() == 11
    sitting_out = [p for p in shown.pairings if p.table is None]
    assert len(sitting_out) == 1 and sitting_out[0].opponent == ""
    for table in Table.objects.filter(game__event=event, game__number=3):
        a, b = (seat.entry.player.name for seat in table.seats.order_by("position"))
        assert {(p.name, p.opponent) for p in shown.pairings if p.table == table.number} == {
            (a, b),
            (b, a),
        }
    # The standings after game 2, with the cut: one in four of 11, rounded up, qualify.
    assert [s.rank for s in shown.standings] == sorted(s.rank for s in shown.standings)
    assert len(shown.standings) == 11 and shown.cut_after == 3
    assert [s.qualifies for s in shown.standings[:4]] == [True, True, True, False]


def test_the_wall_reads_a_constant_number_of_queries_whatever_the_field(
    qualified_event,  # noqa: F811
):
    counts = []
    for players in (8, 14):  # the fixture's spreads stay positive up to 15 players
        event = qualified_event(players, 2, last_open=True)
        with CaptureQueriesContext(connection) as queries:
            wall(event=event)
        counts.append(len(queries))
    assert counts[0] == counts[1], counts


def test_the_playoff_wall_starts_at_the_round_in_play(qualified_event, monkeypatch):  # noqa: F811
    event = qualified_event(16, 5, playoff_best_of={"every": 3})  # 4 qualify: no bye
    playoff_build(event_id=event.pk)
    event.refresh_from_db()
    playoff = Playoff.objects.get(event=event)
    shown = wall(event=event)
    assert shown.stage == "playoffs" and [r.name for r in shown.rounds] == ["Semi-finals", "Final"]
    semi = shown.rounds[0].matches
    assert all(m.a.name and m.b.name for m in semi) and not any(m.decided for m in semi)
    assert all(not m.a.name for m in shown.rounds[1].matches)  # the final: to come

    # With room for one round only, the wall moves on once the semi-finals are decided.
    monkeypatch.setattr(wall_module, "BRACKET_COLUMNS", 1)
    assert [r.name for r in wall(event=event).rounds] == ["Semi-finals"]
    for match in Match.objects.filter(playoff=playoff, round=1):
        _play_match(match)
    final = wall(event=event).rounds
    assert [r.name for r in final] == ["Final"]
    winners = {m.winner.player.name for m in Match.objects.filter(playoff=playoff, round=1)}
    assert {final[0].matches[0].a.name, final[0].matches[0].b.name} == winners


def test_the_finished_wall_and_public_page_show_the_champion(client, qualified_event):  # noqa: F811
    event = qualified_event(12, 5, playoff_best_of={"every": 1})
    playoff_build(event_id=event.pk)
    playoff = Playoff.objects.get(event=event)
    for round_number in (1, 2):
        for match in Match.objects.filter(playoff=playoff, round=round_number):
            _play_match(match)
    event = _publish(event)
    assert event.stage == Event.Stage.FINISHED
    champion = Match.objects.get(playoff=playoff, round=2).winner.player.name
    shown = wall(event=event)
    assert shown.champion == champion and shown.finishers[0].name == champion
    assert [f.place for f in shown.finishers[:2]] == ["1", "2"]
    assert len(shown.finishers) == wall_module.FINISHERS  # the best 8 of the 12 places
    assert (
        f'<p class="wall-champion">{champion}</p>'
        in client.get(f"/events/{event.pk}/wall/?part=live").content.decode()
    )
    public = client.get(f"/events/{event.pk}/").content.decode()
    assert f"Champion: <strong>{champion}</strong>" in public
    assert f'href="/events/{event.pk}/wall/"' in public


def test_the_public_page_links_the_current_game_while_qualifying(client, event_in_play):
    event = _publish(event_in_play(10))
    public = client.get(f"/events/{event.pk}/").content.decode()
    assert f'href="/events/{event.pk}/games/1/"' in public and "Game 1: find your table" in public
    assert "Champion" not in public


def test_a_wall_before_any_pairing_says_what_comes(client):
    director = UserFactory()
    from tests.factories import EventFactory

    event = EventFactory(director=director, published=True)
    html = client.get(f"/events/{event.pk}/wall/").content.decode()
    assert "Game 1’s pairings appear here as soon as they are published." in html
