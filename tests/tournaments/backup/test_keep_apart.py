"""Keep-apart pairs in an event's backup: they come back between the same players, the
history's rows of them name the restored entries, and the import checks each pair as the API
does (two different entries of this backup, a pair once); a backup made before pairs were in
the format is read as one with none."""

from __future__ import annotations

import copy
import json

import pytest

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tests.tournaments.backup.conftest import delete_event
from tournaments.errors import ServiceError
from tournaments.models import AuditEntry, KeepApart
from tournaments.services.backup_export import event_export
from tournaments.services.backup_import import event_import
from tournaments.services.keep_apart import keep_apart_add

pytestmark = pytest.mark.django_db


@pytest.fixture
def doc():
    director = UserFactory(username="dora")
    event = EventFactory(director=director, name="Kept Main")
    entries = [
        EntryFactory(event=event, player=PlayerFactory(name=name, acc_number=f"K{n}"))
        for n, name in enumerate(("Ann Able", "Bob Baker", "Cy Cole", "Di Dunn"))
    ]
    keep_apart_add(event=event, user=director, entry_ids=(entries[0].pk, entries[3].pk),
                   note="couple")  # fmt: skip
    keep_apart_add(event=event, user=director, entry_ids=(entries[1].pk, entries[2].pk))
    data = json.loads(json.dumps(event_export(event=event)))
    delete_event(event, data)
    return data


def _names(event) -> set[tuple[str, str, str]]:
    pairs = KeepApart.objects.filter(event=event).select_related(
        "entry_a__player", "entry_b__player"
    )
    return {(p.entry_a.name, p.entry_b.name, p.note) for p in pairs}


def test_the_pairs_come_back_between_the_same_players(doc):
    assert [(p["entry_a"], p["entry_b"]) for p in doc["keep_apart"]] == [("E1", "E4"), ("E2", "E3")]
    restored = event_import(data=doc, user=UserFactory(username="archivist"))
    assert _names(restored) == {("Ann Able", "Di Dunn", "couple"), ("Bob Baker", "Cy Cole", "")}
    row = AuditEntry.objects.filter(event=restored, action="keep_apart_add").first()
    ids = set(restored.entries.values_list("pk", flat=True))
    assert set(row.after["entries"]) <= ids
    assert event_export(event=restored)["keep_apart"] == doc["keep_apart"]


def test_a_pair_named_in_either_order_is_kept_once(doc):
    doc["keep_apart"][0]["entry_a"], doc["keep_apart"][0]["entry_b"] = "E4", "E1"
    restored = event_import(data=doc, user=UserFactory(username="archivist"))
    assert ("Ann Able", "Di Dunn", "couple") in _names(restored)


@pytest.mark.parametrize(
    ("change", "where", "words"),
    [
        (lambda d: d["keep_apart"][0].update(entry_b="E1"), "keep_apart[0].entry_b", "same entry"),
        (lambda d: d["keep_apart"][0].update(entry_b="E9"), "keep_apart[0].entry_b", "E9"),
        (
            lambda d: d["keep_apart"].append(
                {**d["keep_apart"][0], "entry_a": "E4", "entry_b": "E1"}
            ),
            "keep_apart[2].entry_b",
            "already at keep_apart[0]",
        ),
        (lambda d: d["keep_apart"][1].update(note="x" * 201), "keep_apart[1].note", ""),
        (lambda d: d["keep_apart"][1].update(surprise=1), "keep_apart[1]", "surprise"),
    ],
)
def test_a_bad_pair_is_refused_naming_it_and_nothing_is_restored(doc, change, where, words):
    bad = copy.deepcopy(doc)
    change(bad)
    with pytest.raises(ServiceError) as refused:
        event_import(data=bad, user=UserFactory(username="archivist"))
    assert refused.value.field.startswith(where) and words in refused.value.message
    assert not KeepApart.objects.exists()


def test_a_backup_from_before_keep_apart_is_read_as_one_with_none(doc):
    del doc["keep_apart"]
    restored = event_import(data=doc, user=UserFactory(username="archivist"))
    assert not KeepApart.objects.filter(event=restored).exists()
