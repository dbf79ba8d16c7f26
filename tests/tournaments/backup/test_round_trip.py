"""Export, empty the database, import, export again: the same event, row for row.

What an import rightly changes, and nothing else: when the backup was exported, the import's
own history row (and its importer among the users), ``rated_at`` (the event is not sanctioned
here, so not rated until the ACC office sanctions it here), when the standings were worked out
(again, here), the MRP ledger (the event is not sanctioned here: finalised again, with no
award), and, in a backup without private links, the
links themselves (new ones are made)."""

import json

import pytest
from django.contrib.auth import get_user_model

from tests.factories import UserFactory
from tests.helpers import sanction
from tests.tournaments.backup.conftest import comparable, delete_event, restored_ledger
from tournaments.models import (
    AuditEntry,
    CardLine,
    Entry,
    Event,
    Job,
    MatchLine,
    MrpAward,
    Player,
    RatingPoint,
    Ruling,
)
from tournaments.services.backup_export import event_export
from tournaments.services.backup_import import RESTORED, event_import

pytestmark = pytest.mark.django_db


def _what_it_holds(doc):
    """Counts of the rarer rows, so a round trip cannot pass on a thin event."""
    lines = [line for game in doc["games"] for seat in game["seats"] for line in seat["lines"]]
    matches = doc["playoff"]["matches"]
    return {
        "replaced card lines": sum(not line["current"] for line in lines) > 0,
        "ruling at a table": any(r["table"] for r in doc["rulings"]),
        "ruling in a match": any(r["match_game"] for r in doc["rulings"]),
        "judge calls": len(doc["judge_calls"]),
        "withdrawn": sum(e["status"] == "withdrawn" for e in doc["entries"]),
        "no-show clock": sum(m["absent"] is not None for m in matches),
        "finalisations": len(doc["ledger"]["finalisations"]),
        "superseded awards": any(not a["current"] for a in doc["ledger"]["awards"]),
        "payout adjustments": len(doc["playoff"]["payout_adjustments"]),
        "money": doc["event"]["money"]["entry_fee_cents"],
        "notices": len(doc["notices"]) > 0,
        "standings": doc["standings"] is not None,
        "rated": doc["event"]["rated_at"] is not None,
    }


RICH = {
    "replaced card lines": True,
    "ruling at a table": True,
    "ruling in a match": True,
    "judge calls": 2,
    "withdrawn": 1,
    "no-show clock": 1,
    "finalisations": 2,
    "superseded awards": True,
    "payout adjustments": 1,
    "money": 2500,
    "notices": True,
    "standings": True,
    "rated": True,
}


def _empty() -> bool:
    models = (Event, Entry, Player, CardLine, MatchLine, Ruling, MrpAward, AuditEntry)
    return not any(m.objects.exists() for m in models) and not get_user_model().objects.exists()


def test_an_event_comes_back_row_for_row(rich_event, django_capture_on_commit_callbacks):
    event = rich_event()
    first = json.loads(json.dumps(event_export(event=event)))  # as a file would carry it
    assert _what_it_holds(first) == RICH
    old_ids = set(Entry.objects.filter(event=event).values_list("pk", flat=True))
    old_links = set(Entry.objects.filter(event=event).values_list("report_token", flat=True))
    delete_event(event, first)
    assert _empty()
    archivist = UserFactory(username="archivist")
    with django_capture_on_commit_callbacks(execute=True):  # the ratings job, as after commit
        restored = event_import(data=first, user=archivist)
    second = event_export(event=restored)
    assert comparable(second, importer="archivist") == comparable(first)
    assert second["event"]["finalised_at"] == first["event"]["finalised_at"] is not None
    assert restored_ledger(restored) == [(1, 0, 0, RESTORED)] and not restored.sanctioned
    assert second["standings"]["rows"] == first["standings"]["rows"]
    entries = Entry.objects.filter(event=restored)
    assert not old_ids & set(entries.values_list("pk", flat=True))  # so no id could hide
    assert not old_links & set(entries.values_list("report_token", flat=True))
    history = AuditEntry.objects.filter(event=restored).order_by("-created_at", "-pk").first()
    assert (history.action, history.actor) == ("event_import", archivist)
    # The ratings job ran, and left it out: a file is not the ACC office's sanction here.
    assert Job.objects.filter(kind="ratings", key=f"event:{restored.pk}").exists()
    assert second["event"]["rated_at"] is None
    assert not RatingPoint.objects.filter(event=restored).exists()
    with django_capture_on_commit_callbacks(execute=True):  # the recompute the grant asks for
        sanction(restored)
    restored.refresh_from_db()
    assert restored.rated_at is not None
    assert RatingPoint.objects.filter(event=restored).count() == len(first["entries"])


def test_with_private_links_the_printed_cards_keep_working(rich_event):
    event = rich_event()
    links = dict(Entry.objects.filter(event=event).values_list("player__name", "report_token"))
    first = event_export(event=event, include_tokens=True)
    delete_event(event, first)
    restored = event_import(data=first, user=UserFactory(username="archivist"))
    second = event_export(event=restored, include_tokens=True)
    assert comparable(second, importer="archivist") == comparable(first)
    restored_links = Entry.objects.filter(event=restored)
    assert dict(restored_links.values_list("player__name", "report_token")) == links
    assert restored_links.exclude(previous_report_token="").count() == 1  # the replaced link


def test_history_rows_name_entries_by_key_and_get_this_databases_ids_back(rich_event):
    event = rich_event()
    doc = event_export(event=event)
    build = next(row for row in doc["audit"] if row["action"] == "playoff_build_request")
    corrected = next(row for row in doc["audit"] if row["action"] == "match_game_correct")
    keys = {entry["key"] for entry in doc["entries"]}
    assert set(build["after"]["qualifiers"]) <= keys and build["after"]["qualifiers"]
    assert set(corrected["after"]["lines"]) <= keys and corrected["after"]["winner"] in keys
    delete_event(event, doc)
    restored = event_import(data=doc, user=UserFactory(username="archivist"))
    history = AuditEntry.objects.filter(event=restored)
    seeded = set(restored.playoff.seeds.values_list("entry_id", flat=True))
    assert set(history.get(action="playoff_build_request").after["qualifiers"]) == seeded
    final = restored.playoff.matches.order_by("-round").first()
    after = history.get(action="match_game_correct").after
    assert after["winner"] == final.winner_id
    assert set(after["lines"]) == {str(final.entry_a_id), str(final.entry_b_id)}
