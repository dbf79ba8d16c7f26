"""Events rich in everything a backup must carry, played through the services; and helpers
to empty the database of one event and to compare two backups.

``rich_event()``: a sanctioned Consolation-preset event of 12 players and 7 games with judges
and a cross-checker, a player's and a director's judge call, a ruling at a table and one in a
match, reminders (notices), a withdrawal, a replaced private link, tie playoffs when the cut
needs them, the playoffs played (with the no-show clock started once and a match game
corrected), money settings and a payout set by hand, finalised into the MRP ledger, then a
correction that re-finalises it (so superseded awards), and rated.
"""

from __future__ import annotations

import copy

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model

from scoring.games import CardLine as EngineLine
from tests.factories import UserFactory
from tests.helpers import break_cut_ties, play_game, play_playoffs, sanction
from tournaments.errors import ServiceError
from tournaments.models import (
    CardLine,
    ClubAward,
    Entry,
    Event,
    Game,
    Match,
    MatchGame,
    MrpAward,
    Player,
    Playoff,
    PlayoffSeed,
    Ruling,
    Table,
    TiePlayoff,
)
from tournaments.selectors.final import event_payouts
from tournaments.services.backup_import import event_import
from tournaments.services.corrections import table_correct
from tournaments.services.judge_calls import judge_call_answer, judge_call_create
from tournaments.services.ledger import event_finalise_request
from tournaments.services.links import entry_token_revoke
from tournaments.services.playoffs import playoff_build_request
from tournaments.services.playoffs_corrections import match_clock_start, match_game_correct
from tournaments.services.prizes import event_money_update, payout_set_by_hand
from tournaments.services.results import game_remind_unreported
from tournaments.services.roles import event_role_grant
from tournaments.services.rulings import ruling_record
from tournaments.services.rulings_match import ruling_record_in_match
from tournaments.services.withdrawals import entry_withdraw


def _staff(event):
    """Two judges and a cross-checker, given their roles by the director."""
    judges = [UserFactory(first_name=name, last_name="Judge") for name in ("Ann", "Bea")]
    for judge in judges:
        event_role_grant(event=event, actor=event.director, person=judge.username, role="judge")
    checker = UserFactory(first_name="Cy", last_name="Checker")
    event_role_grant(
        event=event, actor=event.director, person=checker.username, role="cross_checker"
    )
    return judges


def _last_game_in_play(event, judges):
    """Game 7 is published and nobody has reported: calls, a ruling, reminders, a withdrawal."""
    game = Game.objects.get(event=event, number=event.qualifying_games)
    first, second = Table.objects.filter(game=game).order_by("number")[:2]
    a = first.seats.order_by("position").first()
    judge_call_create(table=first, entry=a.entry)  # the player's own call: answered by the ruling
    ruling_record(
        table=first, code="renege", offender_entry=a.entry, score_before_offender=10,
        score_before_opponent=10, judges=judges, entered_by=event.director, reneged_cards=1,
        notes="Reneged on a jack.", hand_number=3,
    )  # fmt: skip
    call = judge_call_create(table=second, user=event.director)
    judge_call_answer(call=call, user=judges[0])
    game_remind_unreported(game=game, user=event.director)
    weakest = max(event.strength, key=event.strength.get)
    entry_withdraw(entry=Entry.objects.get(pk=weakest), user=event.director)
    entry_token_revoke(entry=Entry.objects.get(pk=min(event.strength)), user=event.director)


def _playoffs(event, judges, capture):
    with capture(execute=True):
        playoff_build_request(event=event, user=event.director)
    match = Match.objects.filter(playoff__event=event, status="ready").order_by("round").first()
    match_clock_start(match=match, absent=match.entry_b, user=event.director)
    ruling_record_in_match(
        match=match, code="renege", offender_entry=match.entry_a, score_before_offender=20,
        score_before_opponent=30, judges=judges, entered_by=event.director, reneged_cards=1,
    )  # fmt: skip
    with capture(execute=True):  # the final decided: the ratings job rates the event
        play_playoffs(event)
    final = Match.objects.filter(playoff__event=event).order_by("-round").first()
    last = MatchGame.objects.filter(match=final).order_by("-number").first()
    with capture(execute=True):
        match_game_correct(
            match_game=last, winner_entry=last.winner, spread=17, reason="Pegged 8 more",
            user=event.director,
        )  # fmt: skip


def _money(event):
    director = event.director
    event = event_money_update(
        event=event, user=director, entry_fee_cents=2500, sanctioning_fee_cents=150,
        payout_percents={"1": 50, "2": 30}, qualifier_pool={"split": "equal", "percent": 10},
    )  # fmt: skip
    first = event_payouts(event=event).payouts.lines[0]
    payout_set_by_hand(event=event, key=str(first.key), cents_each=first.each - 100, user=director)


def _finalise_then_correct(event, capture):
    """Finalised; then one of the top seed's wins becomes a skunk (the first the cut guard
    accepts: it must keep the bracket): the ledger is finalised again."""
    with capture(execute=True):
        event_finalise_request(event=event, user=event.director)
    top = PlayoffSeed.objects.get(playoff__event=event, seed=1).entry_id
    wins = CardLine.objects.filter(
        seat__entry_id=top, kind="verified", current=True, game_points=2
    ).select_related("seat__table")
    for win in wins.order_by("seat__game__number"):
        other = win.seat.table.seats.exclude(entry_id=top).get()
        lines = {win.seat_id: EngineLine(3, 40, 0), other.pk: EngineLine(0, 0, 40)}
        try:
            with capture(execute=True):
                table_correct(
                    table=win.seat.table, lines=lines, reason="It was a skunk",
                    user=event.director, source="director",
                )  # fmt: skip
            return
        except ServiceError:
            continue
    raise AssertionError("no correction kept the bracket")


@pytest.fixture
def rich_event(qualified_event, django_capture_on_commit_callbacks):  # noqa: F811
    def make() -> Event:
        capture = django_capture_on_commit_callbacks
        event = sanction(qualified_event(12, 7, preset="acc-consolation", last_open=True))
        judges = _staff(event)
        _last_game_in_play(event, judges)
        with capture(execute=True):
            play_game(event, event.qualifying_games, strength=event.strength)
        with capture(execute=True):
            break_cut_ties(event)
        _playoffs(event, judges, capture)
        _money(event)
        _finalise_then_correct(event, capture)
        event.refresh_from_db()
        return event

    return make


def delete_event(event: Event, doc: dict) -> None:
    """Remove the event, everything of it, its players and the users its backup ``doc`` names
    (used by nothing else in these tests), in the order the protected references allow."""
    players = set(Entry.objects.filter(event=event).values_list("player_id", flat=True))
    users = [user["username"] for user in doc["users"]]
    for model in (MrpAward, ClubAward, Ruling, TiePlayoff):
        model.objects.filter(event=event).delete()
    Playoff.objects.filter(event=event).delete()
    Game.objects.filter(event=event).delete()
    event.delete()
    Player.objects.filter(pk__in=players, entries__isnull=True).delete()
    get_user_model().objects.filter(username__in=users).delete()


def comparable(doc: dict, *, importer: str | None = None) -> dict:
    """The document less what an import rightly changes: when it was exported, the import's
    own history row (and its importer, if named only there), when it was rated, when its
    standings were worked out, and its MRP ledger (worked out here for an event the ACC
    office has not sanctioned here: ``restored_ledger`` says what it must be)."""
    doc = copy.deepcopy(doc)
    del doc["exported_at"], doc["ledger"]
    doc["audit"] = [row for row in doc["audit"] if row["action"] != "event_import"]
    doc["users"] = [user for user in doc["users"] if user["username"] != importer]
    doc["event"]["rated_at"] = None
    if doc["standings"] is not None:
        del doc["standings"]["computed_at"]
    return doc


def restored_ledger(event: Event) -> list[tuple]:
    """A restored event's ledger: finalised again here when it was final, with no award
    (it is not sanctioned here), and nothing else."""
    return [
        (f.number, f.awards, f.points, f.reason) for f in event.finalisations.order_by("number")
    ] + list(MrpAward.objects.filter(event=event).values_list("points"))


def row_counts() -> dict[str, int]:
    """How many rows every table of the app (and the users) holds: a refused import leaves
    them all as they were."""
    counted = [*apps.get_app_config("tournaments").get_models(), get_user_model()]
    return {model.__name__: model.objects.count() for model in counted}


def forged(doc: dict, path: tuple, value) -> dict:
    """A copy of ``doc`` with the value at ``path`` (keys and indexes) replaced."""
    doc = copy.deepcopy(doc)
    *parents, last = path
    place = doc
    for step in parents:
        place = place[step]
    place[last] = value
    return doc


def refused(doc: dict, user=None) -> ServiceError:
    """Import ``doc``; it must be refused with nothing saved. The refusal, for its field."""
    user = user or UserFactory()
    before = row_counts()
    with pytest.raises(ServiceError) as refusal:
        event_import(data=doc, user=user)
    assert row_counts() == before, "a refused import saved something"
    return refusal.value
