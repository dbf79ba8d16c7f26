"""A player's page is opened with one read of its entry, player and event
(``selectors.live.entry_and_poll_by_token``) that takes only the columns the page shows: not
the entry's or the player's contact details, not the event's money or sanctioning. A field
the page reads that the read left out would be loaded by Django on its own, a query per
field on every opening: here no page, in any state a player sees, loads one."""

import pytest
from django.db import connection
from django.db.models import Model

from tests.factories import UserFactory
from tournaments.models import Entry, Event, Game, Match, Notice, Player
from tournaments.selectors.live import _ENTRY_WITH_PARTS, _PAGE_FIELDS
from tournaments.services.playoffs import playoff_build
from tournaments.services.results import card_line_report
from tournaments.services.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db

LEFT_OUT = {
    Entry: ("email", "phone", "link_emailed_at", "created_at"),
    Player: ("acc_number", "phone", "home_club_id", "created_at"),
    Event: ("entry_fee_cents", "payout_percents", "sanction_note", "created_by_id"),
}


class Loads(list):
    """Every field Django loaded afterwards for an entry, player or event (a deferred read)
    while a page was opened (``_open``)."""

    opening = False


@pytest.fixture
def loads(monkeypatch):
    seen = Loads()
    real = Model.refresh_from_db

    def refresh(self, using=None, fields=None, from_queryset=None):
        if seen.opening and isinstance(self, (Entry, Player, Event)):
            seen.append((type(self).__name__, tuple(fields or ())))
        return real(self, using=using, fields=fields, from_queryset=from_queryset)

    monkeypatch.setattr(Model, "refresh_from_db", refresh)
    return seen


def _open(client, entry, words: str, loads: Loads) -> None:
    loads.opening = True
    try:
        page = client.get(f"/r/{entry.report_token}/")
    finally:
        loads.opening = False
    assert page.status_code == 200
    assert words in page.content.decode()


def test_the_read_leaves_out_what_the_page_does_not_show():
    sql = _ENTRY_WITH_PARTS.plan(connection.vendor).sql
    for model, names in LEFT_OUT.items():
        for name in names:
            assert f'{model._meta.db_table}"."{name}"' not in sql, (model, name)
    # What it keeps is read, and the page's own needs are named once.
    assert '"tournaments_event"."target_score"' in sql and '"tournaments_player"."name"' in sql
    assert len(set(_PAGE_FIELDS)) == len(_PAGE_FIELDS)


def test_a_page_in_play_loads_nothing_more(client, event_in_play, loads):
    event = event_in_play(10)
    a, b = Game.objects.get(event=event, number=1).tables.get(number=1).seats.order_by("position")
    _open(client, a.entry, "Nobody at your table has reported yet.", loads)
    card_line_report(seat=b, won=False, spread=12)
    Notice.objects.create(entry=a.entry, message="Table 1, please report")
    _open(client, a.entry, "has reported: your turn", loads)
    card_line_report(seat=a, won=True, spread=12)
    _open(client, a.entry, "verified", loads)
    assert loads == []


def test_a_player_who_sits_out_loads_nothing_more(client, event_in_play, loads):
    event = event_in_play(9)  # an odd field: one player sits out each game
    resting = Game.objects.get(event=event, number=1).seats.get(table=None)
    _open(client, resting.entry, "You sit out game 1:", loads)
    assert loads == []


def test_a_signed_in_player_offered_the_link_loads_nothing_more(client, event_in_play, loads):
    event = event_in_play(10)
    entry = Entry.objects.filter(event=event).first()
    Player.objects.filter(pk=entry.player_id).update(email="player@example.com")
    client.force_login(UserFactory())
    _open(client, entry, "We will e-mail a code to the address", loads)
    assert loads == []


def test_a_withdrawn_player_and_one_checking_in_load_nothing_more(client, event_in_play, loads):
    event = event_in_play(10)
    entry = Entry.objects.filter(event=event).first()
    entry_withdraw(entry=entry, user=event.director)
    _open(client, Entry.objects.get(pk=entry.pk), "You withdrew", loads)
    # Before registration closes (``prepare`` runs first) the page offers the check-in.
    first = lambda e: Entry.objects.filter(event=e).first()  # noqa: E731
    event_in_play(10, prepare=lambda e: _open(client, first(e), 'class="check-in"', loads))
    assert loads == []


def test_a_player_in_the_playoffs_loads_nothing_more(client, qualified_event, loads):
    event = qualified_event(12, 5, playoff_best_of={"every": 3})
    playoff_build(event_id=event.pk)
    match = Match.objects.get(playoff__event=event, round=1, slot=1)
    _open(client, match.entry_a, "Playoffs: Semi-finals", loads)
    assert loads == []
