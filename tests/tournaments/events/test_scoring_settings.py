"""The engine's settings read from an event (``selectors.events.event_scoring_settings``): made
once per distinct set of values and shared, so a report does not build and check them three
times; never one event's settings for another, nor the values an event had before a change."""

import pytest

from scoring.games import ACC_SETTINGS
from tournaments.models import Event
from tournaments.selectors.events import event_scoring_settings


def _event(**fields) -> Event:
    return Event(name="Scoring", **fields)  # the settings read only the instance's fields


def test_an_event_with_the_accs_values_gets_the_accs_settings():
    assert event_scoring_settings(event=_event()) == ACC_SETTINGS


def test_events_with_the_same_values_share_one_settings_object():
    first = event_scoring_settings(event=_event(target_score=61, skunk_margin=15))
    second = event_scoring_settings(event=_event(target_score=61, skunk_margin=15))
    assert first is second


def test_each_event_gets_its_own_values_and_a_change_is_seen_at_once():
    event = _event(target_score=61, skunk_margin=15, double_skunk_margin=None)
    before = event_scoring_settings(event=event)
    assert (before.target, before.skunk_margin, before.double_skunk_margin) == (61, 15, None)
    event.skunk_margin, event.win_points, event.skunk_points = 20, 3, 4
    after = event_scoring_settings(event=event)
    assert (after.skunk_margin, after.win_points, after.skunk_points) == (20, 3, 4)
    assert event_scoring_settings(event=_event()) == ACC_SETTINGS


def test_impossible_values_are_refused_every_time():
    for _ in range(2):  # a refusal is not kept: the second call checks again
        with pytest.raises(ValueError, match="skunk_margin"):
            event_scoring_settings(event=_event(target_score=61, skunk_margin=90))


def test_a_flag_or_a_fraction_is_refused_even_after_the_integer_was_kept():
    assert event_scoring_settings(event=_event(win_points=1, skunk_points=3)).win_points == 1
    with pytest.raises(ValueError, match="win_points"):
        event_scoring_settings(event=_event(win_points=True, skunk_points=3))
    event_scoring_settings(event=_event())  # 121 kept
    with pytest.raises(ValueError, match="target"):
        event_scoring_settings(event=_event(target_score=121.0))
