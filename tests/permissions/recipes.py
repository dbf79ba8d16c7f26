"""How each route is called: URL keyword arguments, request bodies and preparations, each a
function of the world (``world.World``). ``*_b`` recipes name side B's object."""

from __future__ import annotations

import json

from tournaments.forms import EventSettingsForm
from tournaments.models import Club, Entry, Event, Game, Match, Playoff, Table
from tournaments.services.links import entry_token_revoke
from tournaments.services.playoffs_corrections import match_clock_start
from tournaments.services.results import card_line_report, game_close
from tournaments.views.clubs import ClubForm

HAND_29 = {"kind": "hand_29", "hand": "5H 5D 5S JC", "starter": "5C"}
PASSWORD = "correct horse battery"  # tests.factories.UserFactory's


# URL keyword arguments


def reg(w):
    return {"event_id": w.A.reg.pk}


def play(w):
    return {"event_id": w.A.play.pk}


def cut(w):
    return {"event_id": w.A.cut.pk}


def done(w):
    return {"event_id": w.A.done.pk}


def game(number):
    return lambda w: {"event_id": w.A.play.pk, "number": number}


def table(w):
    return {"event_id": w.A.play.pk, "number": 1, "table_number": 1}


def match(w):
    return {"event_id": w.A.cut.pk, "match_id": w.A.extra.match.pk}


def match_b(w):
    return {"event_id": w.A.cut.pk, "match_id": w.B.extra.match.pk}


def match_game(w):
    return {**match(w), "number": 1}


def match_game_b(w):
    return {**match_b(w), "number": 1}


def entry(name, side="A"):
    return lambda w: {"entry_id": getattr(getattr(w, side).extra, name).pk}


def judge_call(side):
    return lambda w: {"call_id": getattr(w, side).extra.judge_call.pk}


def grant(side):
    return lambda w: {"event_id": w.A.play.pk, "grant_id": getattr(w, side).extra.play_grant.pk}


def job(side):
    return lambda w: {"job_id": getattr(w, side).extra.play_job.pk}


def token(side, where="player_entry"):
    return lambda w: {"token": getattr(getattr(w, side).extra, where).report_token}


def club(side):
    return lambda w: {"club_id": getattr(w, side).club.pk}


def spare_club(w):
    """A club nothing names (made again when a test removed it): one an administrator may
    merge or remove."""
    return {"club_id": Club.objects.get_or_create(name="Spare club")[0].pk}


def spare_into_a(w):
    return {"merge": spare_club(w)["club_id"], "keep": w.A.club.pk}


def club_season(w):
    return {"club_id": w.A.club.pk, "season": 2024}


def player(w):
    return {"player_id": w.A.player.pk}


def merge(w):
    return {"merge_id": w.merge_done.pk}


def account_link(name):
    """A's ``own_link`` (the player's confirmed link) or ``link_waiting`` (a stranger's)."""
    return lambda w: {"link_id": getattr(w.A.extra, name).pk}


def record_change(w):
    return {"change_id": w.A.extra.record_change.pk}


def link_by_admin(w):
    """An administrator links the stranger who asked to be the player with no address."""
    link = w.A.extra.link_waiting
    return {"username": link.user.username, "player": link.player_id}


def record_rename(w):
    """The record form with a new name (the ACC number as it is: a change of it waits)."""
    return {"name": "Pat Renamed", "acc_number": w.A.player.acc_number}


def none(w):
    return {}


def query(recipe, **params):
    """``recipe`` with a query string; a callable value is called with the world."""
    return lambda w: {**recipe(w), "?": {k: v(w) if callable(v) else v for k, v in params.items()}}


# Bodies


def table_one(w, side="A") -> Table:
    event = getattr(w, side).play
    return Table.objects.get(game__event=event, game__number=1, number=1)


def seat_entries(w, side="A") -> list[int]:
    seats = table_one(w, side).seats.order_by("position")
    return list(seats.values_list("entry_id", flat=True))


def ruling(w, *, offender=None, judges=None):
    """A procedural ruling (2 to the opponent) at table 1; the judges are A's two judges."""
    return {
        "code": "exposed_bottom_card",
        "offender": offender if offender is not None else seat_entries(w)[0],
        "score_before_offender": 50,
        "score_before_opponent": 60,
        "judges": [u.pk for u in (judges or w.A.judges)],
    }


def ruling_page(w, **kwargs):
    return {**ruling(w, **kwargs), "confirm": "1"}


def match_ruling_page(w, offender=None):
    m = w.A.extra.match
    return ruling_page(w, offender=offender or m.entry_a_id)


def tie(w, side="A"):
    """Two seated entries of the in-play event of ``side``."""
    winner, loser = seat_entries(w, side)
    return {"winner": winner, "loser": loser}


def correction_page(w):
    return {
        "game_points_1": 2, "plus_1": 14, "minus_1": 0,
        "game_points_2": 0, "plus_2": 0, "minus_2": 14,
        "reason": "the cards were swapped",
    }  # fmt: skip


def correction_api(w):
    lines = [
        {"position": 1, "game_points": 2, "plus": 14, "minus": 0},
        {"position": 2, "game_points": 0, "plus": 0, "minus": 14},
    ]
    return {"lines": lines, "reason": "the cards were swapped"}


def form_data(form_class, instance, **changes):
    """A model form's fields as posted by the page, with ``changes``."""
    form = form_class(instance=instance)
    data = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
            continue
        if isinstance(value, (list, dict)):
            value = json.dumps(value)
        data[name] = "" if value is None else value
    return {**data, **changes}


def event_settings(w):
    return form_data(EventSettingsForm, w.A.reg, name="Renamed by the matrix")


def club_settings(w):
    return form_data(ClubForm, w.A.club, city="Renamed by the matrix")


def money(w):
    return {
        "entry_fee": "20", "sanctioning_fee": "1", "pool": "none",
        "band_1": "50", "band_2": "30", "band_3-4": "20",
    }  # fmt: skip


def backup_renamed(w):
    """Side A's event in play as its backup, renamed: a venue laptop's push of a new event."""
    from tournaments.services.backup_export import event_export

    document = event_export(event=w.A.play)
    document["event"]["name"] = "Pushed from a venue laptop"
    return document


def login_of(role):
    return lambda w: {"username": w.users[role].username, "password": PASSWORD}


# Preparations: run for every role, A and B alike, inside the test's transaction.


def flag_table_one(w):
    """Table 1 of game 1 with two reports that disagree, then the game closed: flagged."""
    for side in (w.A, w.B):
        seats = table_one(w, side.name).seats.order_by("position")
        for seat in seats:
            card_line_report(seat=seat, won=True, spread=10)
        game_close(game=Game.objects.get(event=side.play, number=1), user=side.director)


def start_clock(w):
    for side in (w.A, w.B):
        m = Match.objects.get(pk=side.extra.match.pk)
        match_clock_start(match=m, absent=m.entry_b, user=side.director)


def doubles(w):
    """Each side's registration event plays in teams of two (the style is a setting)."""
    Event.objects.filter(pk__in=[w.A.reg.pk, w.B.reg.pk]).update(style=Event.Style.DOUBLES)


TEAM = {
    "players": [{"name": "Tess Able", "new_player": True}, {"name": "Ugo Bell", "new_player": True}]
}


def new_link(w):
    for side in (w.A, w.B):
        entry = Entry.objects.get(pk=side.extra.reg_checked_in.pk)
        entry_token_revoke(entry=entry, user=side.director)


def sanctioning_asked(w):
    """Each side's cut event (a Main) waits for the ACC office."""
    from tournaments.services.sanctioning import event_sanction_request

    for side in (w.A, w.B):
        event_sanction_request(event=side.cut, user=side.director)


def second_club_director(w):
    """Each side's club has a second director (the side's second judge), one to remove."""
    from tournaments.models import ClubRole

    for side in (w.A, w.B):
        ClubRole.objects.get_or_create(club=side.club, user=side.judges[1])


def club_director(side):
    return lambda w: {"club_id": getattr(w, side).club.pk, "user_id": getattr(w, side).judges[1].pk}


def recognition_asked(w):
    """Each side's club waits for the ACC office to recognise it."""
    from tournaments.services.club_recognition import club_recognition_request

    for side in (w.A, w.B):
        club_recognition_request(club=side.club, user=side.director)


def club_recognised(w):
    """Each side's club is recognised by the ACC office (the world's admin)."""
    from tournaments.services.club_recognition import club_recognition_grant

    for side in (w.A, w.B):
        club_recognition_grant(club=side.club, user=w.users["admin"])


def no_bracket(w):
    """A's cut undone (its matches with it), so that the bracket can be built."""
    Playoff.objects.filter(event=w.A.cut).delete()


# Check-in (issue 16)


def check_in_code(code_side="A"):
    """A's registration event with the check-in code of ``code_side``'s (B's: not A's code)."""

    def kwargs(w):
        from tournaments.views.check_in import event_check_in_code

        code = event_check_in_code(getattr(w, code_side).reg)
        return {"event_id": w.A.reg.pk, "code": code}

    return kwargs


def check_in_entries(side="A"):
    return lambda w: {"confirm": "yes", "entries": str(getattr(w, side).extra.reg_registered.pk)}


def check_in_undo_entries(side="A"):
    return lambda w: {"entries": str(getattr(w, side).extra.reg_checked_in.pk)}


def players_not_checked_in(w):
    """Each side's player not checked in yet at its registration event, so that checking in
    by the event's code writes."""
    for side in (w.A, w.B):
        Entry.objects.filter(event=side.reg, player=side.player).update(
            status=Entry.Status.REGISTERED, checked_in_at=None
        )
