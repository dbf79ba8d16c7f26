"""A 64-player weekend simulated end to end through the real services and jobs."""

import pytest
from django.core.management import call_command

from tournaments.models import CardLine, Event, Match, Ruling, StandingsSnapshot, Table

# Real commits: the pairing and standings jobs run (eagerly) when each step commits.
pytestmark = pytest.mark.django_db(transaction=True)


def test_a_64_player_weekend_runs_from_registration_to_champion(capsys):
    call_command("simulate_event", players=64, games=8, seed=11, name="Sim 64")
    out = capsys.readouterr().out
    event = Event.objects.get(name="Sim 64")
    assert event.stage == Event.Stage.FINISHED
    assert "champion:" in out and "not yet" not in out

    # Qualifying: every table of every game verified, every line a legal ACC line.
    assert Table.objects.filter(game__event=event).count() == 8 * 32
    assert not Table.objects.filter(game__event=event).exclude(status="verified").exists()
    verified = CardLine.objects.filter(seat__game__event=event, kind="verified", current=True)
    assert verified.count() == 8 * 64
    for line in verified:
        assert (line.game_points, bool(line.plus), bool(line.minus)) in {
            (2, True, False),
            (3, True, False),
            (0, False, True),
        }
        assert 1 <= (line.plus or line.minus) <= 121
        assert (line.game_points == 3) == (line.plus >= 31)
    assert Ruling.objects.filter(event=event).exists()

    # The cut: one in four of 64 is 16, a full bracket of 16 lines with no byes.
    snapshot = StandingsSnapshot.objects.filter(event=event).latest()
    assert snapshot.qualifiers == 16
    assert event.playoff.qualifiers == 16
    matches = Match.objects.filter(playoff__event=event)
    assert matches.count() == 15 and not matches.filter(bye=True).exists()
    assert not matches.exclude(status="decided").exists()
    final = matches.get(round=4)
    top_two = set(event.playoff.seeds.filter(seed__in=[1, 2]).values_list("entry_id", flat=True))
    # Seeds 1 and 2 start in opposite halves, so they can only meet in the final.
    first_round = {m.slot: {m.entry_a_id, m.entry_b_id} for m in matches.filter(round=1)}
    halves = [
        set().union(*(first_round[s] for s in range(4))),
        set().union(*(first_round[s] for s in range(4, 8))),
    ]
    assert all(len(top_two & half) == 1 for half in halves)
    assert final.winner_id in {final.entry_a_id, final.entry_b_id}
