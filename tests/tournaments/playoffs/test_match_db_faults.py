"""A playoff match report whose connection drops, on PostgreSQL: run again once, and never
saved twice (nor refused as "already decided") when its COMMIT's answer was lost."""

import pytest
from django.db import connection

from tests.helpers import commit_answer_lost, connection_terminate
from tournaments.models import Match, MatchGame, MatchLine, Playoff
from tournaments.services import playoffs_matches
from tournaments.services.playoffs import playoff_build
from tournaments.services.playoffs_matches import match_game_report

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def semi(qualified_event):
    event = qualified_event(12, 5, playoff_best_of={"every": 1})
    playoff_build(event_id=event.pk)
    yield Match.objects.get(playoff=Playoff.objects.get(event=event), round=1, slot=1)
    connection.close()  # a test may leave its connection ended: the cleanup opens a new one


def _reported(match, entry) -> int:
    return MatchLine.objects.filter(match_game__match=match, entry=entry, kind="reported").count()


def test_a_deciding_report_whose_commit_answer_was_lost_is_saved_once(semi, monkeypatch):
    a, b = semi.entry_a, semi.entry_b
    match_game_report(match=semi, entry=a, won=True, spread=12)
    commit_answer_lost(monkeypatch, saved=True)
    line = match_game_report(match=semi, entry=b, won=False, spread=12)
    assert MatchLine.objects.get(pk=line.pk).entry_id == b.pk
    assert (_reported(semi, a), _reported(semi, b)) == (1, 1)
    semi.refresh_from_db()
    assert (semi.status, semi.winner_id) == (Match.Status.DECIDED, a.pk)
    assert MatchGame.objects.filter(match=semi).count() == 1


def test_a_report_whose_connection_drops_mid_transaction_is_run_again(semi, monkeypatch):
    real, runs = playoffs_matches.match_line_save, []

    def save_then_drop(*args, **kwargs):
        line = real(*args, **kwargs)
        runs.append(line.pk)
        if len(runs) == 1:
            connection_terminate()
        return line

    monkeypatch.setattr(playoffs_matches, "match_line_save", save_then_drop)
    line = match_game_report(match=semi, entry=semi.entry_a, won=True, spread=12)
    assert len(runs) == 2 and line.pk == runs[1]
    assert _reported(semi, semi.entry_a) == 1
    assert not MatchLine.objects.filter(pk=runs[0]).exists()
