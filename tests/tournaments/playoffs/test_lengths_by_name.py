"""Playoff lengths keep the round their director named (every round, semi-finals, final),
whatever size of bracket the field makes by the cut."""

from copy import copy

import pytest

from tests.factories import EntryFactory
from tournaments.forms import EventSettingsForm
from tournaments.models import Match
from tournaments.services.events import event_update_settings
from tournaments.services.playoffs import playoff_build_request
from tournaments.services.withdrawals import entry_withdraw

pytestmark = pytest.mark.django_db


def _choose_on_the_page(event, **changes):
    """What the settings page saves when the director changes ``changes`` and nothing else."""
    data = {}
    for field in EventSettingsForm(instance=event):
        value = field.value()
        if isinstance(value, bool):
            if value:
                data[field.name] = "on"
            continue
        data[field.name] = "" if value is None else value
    form = EventSettingsForm({**data, **changes}, instance=copy(event))
    assert form.is_valid(), form.errors
    event_update_settings(event=event, user=event.created_by, **form.changes())


def _lengths_by_round(event, capture):
    with capture(execute=True):
        playoff_build_request(event=event, user=event.director)
    rows = Match.objects.filter(playoff__event=event).values_list("round", "best_of")
    return [best for _, best in sorted(set(rows))]


def test_a_final_of_7_stays_7_when_four_withdraw_before_the_cut(
    qualified_event, django_capture_on_commit_callbacks
):
    def prepare(event):  # 10 entered: 5 qualify, 3 rounds when the final is chosen
        _choose_on_the_page(event, best_of_final="7")
        for entry in event.entries.order_by("-pk")[:4]:
            entry_withdraw(entry=entry, user=event.created_by)

    event = qualified_event(10, 3, prepare=prepare, preset="acc-main", qualifier_ratio=2)
    lengths = _lengths_by_round(event, django_capture_on_commit_callbacks)  # 6 play: 3 qualify
    assert lengths == [5, 7]  # the semi-finals as every round, the final best of 7


def test_a_larger_field_leaves_the_semi_finals_as_chosen(
    qualified_event, django_capture_on_commit_callbacks
):
    def prepare(event):  # 6 entered when the final is chosen (3 qualify), then 4 more walk in
        _choose_on_the_page(event, best_of_final="7")
        for _ in range(4):
            EntryFactory(event=event)

    event = qualified_event(6, 3, prepare=prepare, preset="acc-main", qualifier_ratio=2)
    lengths = _lengths_by_round(event, django_capture_on_commit_callbacks)  # 10: 5 qualify
    assert lengths == [5, 5, 7]  # 3 rounds: the semi-finals are not the old "round 2"
