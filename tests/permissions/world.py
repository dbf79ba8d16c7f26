"""The data the permission matrix runs against: two sides, A and B, of the same shape.

Each side has four events, built through the services as a director would:

- reg: registration open (a registered entry to check in, a checked-in one to withdraw or
  give a new link, a withdrawn one to bring back).
- play: game 1 published and in play (tables open, an open judge call at a table the player
  of the side does not sit at), game 2 paired as a draft, a spare role grant to revoke and a
  person to give a role to.
- cut: a Main whose qualifying round is over and whose bracket is built; the side's player is
  seed 1 and has won game 1 of their semi-final (a verified match game to correct or void).
- done (side A only): a sanctioned event played to a champion and finalised.

and a club with a club night (one entry, for awards); on side A, the player's confirmed account
link, a stranger's request to link waiting for an administrator, and a change to the player's
record proposed by the director (``_trust``). Side B is built first, so that each of
its rows has a lower primary key than the matching row of A: a lookup that forgot its event
filter (``.filter(number=1).first()``) then finds B's row, and the matrix sees it.

Roles: ``player`` is the account linked to the player entered in A's events (``Player.user``);
``other_player`` the one entered in B's only; ``judge`` and ``cross_checker`` hold those roles
in every A event; ``director`` directs every A event and club A; ``other_director`` the same
for B; ``admin`` is a superuser.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from types import SimpleNamespace

from django.test import TestCase

from tests.factories import EntryFactory, EventFactory, PlayerFactory, UserFactory
from tests.helpers import break_cut_ties, link_account, play_game, play_playoffs, sanction
from tournaments.models import (
    AccountLink,
    ClubRole,
    Entry,
    EventRole,
    Game,
    JudgeCall,
    Match,
    Player,
    RecordChange,
    Table,
)
from tournaments.services.clubs import club_create, club_night_create
from tournaments.services.entries import Registration, entry_register
from tournaments.services.events import event_close_registration
from tournaments.services.ledger import event_finalise_request
from tournaments.services.pairings import game_pairings_request, game_publish
from tournaments.services.players import player_merge
from tournaments.services.playoffs import playoff_build_request
from tournaments.services.playoffs_matches import match_game_report
from tournaments.services.withdrawals import entry_withdraw

ROLES = (
    "anonymous",
    "player",
    "other_player",
    "judge",
    "cross_checker",
    "other_director",
    "director",
    "admin",
)


def on_commit():
    """Run the jobs a service enqueues (no broker: they run when the transaction commits)."""
    return TestCase.captureOnCommitCallbacks(execute=True)


@dataclass
class Side:
    """One side's objects (see the module)."""

    name: str
    director: object
    player: Player
    judges: list
    cross_checker: object
    reg: object = None
    play: object = None
    cut: object = None
    done: object = None
    club: object = None
    extra: SimpleNamespace = field(default_factory=SimpleNamespace)


def _staff(side: Side, event) -> None:
    for judge in side.judges:
        EventRole.objects.create(event=event, user=judge, role=EventRole.Role.JUDGE)
    EventRole.objects.create(
        event=event, user=side.cross_checker, role=EventRole.Role.CROSS_CHECKER
    )


def _event(side: Side, label: str, players: int, **settings):
    """An event of ``side`` with its staff; the side's player is entered first (the
    strongest, when games are played by strength)."""
    event = EventFactory(director=side.director, name=f"{side.name} {label}", **settings)
    _staff(side, event)
    EntryFactory(event=event, player=side.player)
    for _ in range(players - 1):
        EntryFactory(event=event)
    event.director = side.director
    return event


def _pair_and_publish(event, number: int, *, publish: bool = True) -> Game:
    with on_commit():
        game_pairings_request(event=event, number=number, user=event.director)
    game = Game.objects.get(event=event, number=number)
    if publish:
        with on_commit():
            game_publish(game=game, user=event.director)
    return game


def _registration(side: Side) -> None:
    event = _event(side, "registration", 6, qualifying_games=3)
    x = side.extra
    x.reg_registered = EntryFactory(event=event, status=Entry.Status.REGISTERED)
    x.reg_checked_in = EntryFactory(event=event)
    x.reg_withdrawn = EntryFactory(event=event)
    entry_withdraw(entry=x.reg_withdrawn, user=side.director)
    side.reg = event


def _in_play(side: Side) -> None:
    event = _event(side, "in play", 10, qualifying_games=3)
    event_close_registration(event=event, user=side.director)
    game = _pair_and_publish(event, 1)
    _pair_and_publish(event, 2, publish=False)
    x = side.extra
    x.play_job = game.job
    x.player_entry = event.entries.get(player=side.player)
    player_table = Table.objects.get(game=game, seats__entry=x.player_entry)
    # Table 1 is for the staff routes; the open call is at a table the player is not at.
    called = game.tables.exclude(pk=player_table.pk).exclude(number=1).order_by("number").first()
    x.judge_call = JudgeCall.objects.create(table=called, called_by_user=side.director)
    spare = UserFactory(username=f"spare_play_{side.name.lower()}")
    x.play_grant = EventRole.objects.create(event=event, user=spare, role="cross_checker")
    x.grant_target = UserFactory(username=f"newcomer_{side.name.lower()}")
    side.play = event


def _qualified(side: Side, label: str, players: int, games: int, **settings):
    """Every qualifying game played by strength, closed, ties across the cut broken."""
    event = _event(side, label, players, qualifying_games=games, **settings)
    event_close_registration(event=event, user=side.director)
    strength = {
        pk: i for i, pk in enumerate(event.entries.order_by("pk").values_list("pk", flat=True))
    }
    for number in range(1, games + 1):
        _pair_and_publish(event, number)
        with on_commit():
            play_game(event, number, strength=strength)
    break_cut_ties(event)
    with on_commit():
        playoff_build_request(event=event, user=side.director)
    event.refresh_from_db()
    return event


def _cut(side: Side) -> None:
    event = _qualified(
        side, "cut", 8, 3, preset="acc-main", qualifier_ratio=2, playoff_best_of={"every": 3}
    )
    match = Match.objects.get(playoff__event=event, entry_a__player=side.player, round=1)
    with on_commit():
        match_game_report(match=match, entry=match.entry_a, won=True, spread=9)
        match_game_report(match=match, entry=match.entry_b, won=False, spread=9)
    side.extra.match = match
    side.extra.cut_entry = match.entry_a
    side.cut = event


def _done(side: Side) -> None:
    event = _qualified(side, "finished", 8, 7, preset="acc-consolation", qualifier_ratio=4)
    sanction(event)
    with on_commit():
        play_playoffs(event)
    with on_commit():
        event_finalise_request(event=event, user=side.director)
    event.refresh_from_db()
    side.done = event


def _club(side: Side) -> None:
    club = club_create(name=f"Club {side.name}", user=side.director)
    night = club_night_create(club=club, user=side.director, played_on=datetime.date(2025, 3, 4))
    side.extra.night_entry = entry_register(
        event=night,
        registration=Registration(name=f"Night player {side.name}", new_player=True),
        check_in=True,
        user=side.director,
    )
    side.club = club


def _weekend(side: Side) -> None:
    """A weekend listing the side's registration event, open for requests, with one request
    waiting; an invitation to judge that event and one to direct the club, both waiting."""
    from tournaments.services.invitations import invitation_send
    from tournaments.services.registrations import registration_request_create
    from tournaments.services.weekends import (
        weekend_create,
        weekend_event_add,
        weekend_registration_set,
    )

    x, low = side.extra, side.name.lower()
    x.weekend = weekend_create(
        user=side.director, name=f"Weekend {side.name}", starts_on=datetime.date(2025, 6, 7)
    )
    weekend_event_add(weekend=x.weekend, event=side.reg, user=side.director)
    weekend_registration_set(weekend=x.weekend, user=side.director, open=True)
    x.request = registration_request_create(
        weekend=x.weekend, name=f"Asker {side.name}", acc_number=f"REQ-{low}",
        event_ids=[side.reg.pk],
    )  # fmt: skip
    x.choice = x.request.choices.get()
    x.invitation = invitation_send(
        actor=side.director, event=side.reg, email=f"judge-{low}@example.org", role="judge"
    )
    from tournaments.services.keep_apart import keep_apart_add

    first, second, *_ = side.reg.entries.order_by("pk").values_list("pk", flat=True)
    x.keep_apart = keep_apart_add(event=side.reg, user=side.director, entry_ids=(first, second))
    x.club_invitation = invitation_send(
        actor=side.director, club=side.club, email=f"club-{low}@example.org", role=""
    )


def _side(name: str, *, done: bool) -> Side:
    low = name.lower()
    side = Side(
        name=name,
        director=UserFactory(username=f"director_{low}"),
        player=link_account(
            PlayerFactory(name=f"Pat {name}"), UserFactory(username=f"player_{low}")
        ),
        judges=[UserFactory(username=f"judge_{low}"), UserFactory(username=f"judge2_{low}")],
        cross_checker=UserFactory(username=f"checker_{low}"),
    )
    _registration(side)
    _in_play(side)
    _cut(side)
    if done:
        _done(side)
    _club(side)
    assert ClubRole.objects.filter(club=side.club, user=side.director).exists()
    _weekend(side)
    return side


def _trust(side: Side) -> None:
    """Who may act for a player (issue 21): the player's own confirmed link, a request to link
    waiting for an administrator (a stranger asking to be a player with no e-mail address),
    and a change to the player's record proposed by the side's director."""
    x = side.extra
    x.own_link = AccountLink.objects.get(player=side.player, status="confirmed")
    x.link_waiting = AccountLink.objects.create(
        player=x.reg_registered.player,
        user=UserFactory(username=f"asker_{side.name.lower()}"),
        method=AccountLink.Method.ADMINISTRATOR,
    )
    x.record_change = RecordChange.objects.create(
        player=side.player,
        field=RecordChange.Field.ACC_NUMBER,
        old_value=side.player.acc_number,
        new_value="ACC-7777",
        proposed_by=side.director,
        event=side.reg,
    )


@dataclass
class World:
    A: Side
    B: Side
    users: dict  # role -> user (None for anonymous)
    merge_keep: Player
    merge_gone: Player
    merge_done: object  # a PlayerMerge to undo
    baseline: dict = field(default_factory=dict)  # snapshots of the world as built, by name


def build_world() -> World:
    B = _side("B", done=False)
    A = _side("A", done=True)
    admin = UserFactory(username="admin", is_staff=True, is_superuser=True)
    users = {
        "anonymous": None,
        "player": A.player.user,
        "other_player": B.player.user,
        "judge": A.judges[0],
        "cross_checker": A.cross_checker,
        "other_director": B.director,
        "director": A.director,
        "admin": admin,
    }
    _trust(A)
    keep, gone = PlayerFactory(acc_number=""), PlayerFactory(acc_number="")
    kept, merged = PlayerFactory(acc_number=""), PlayerFactory(acc_number="")
    merge_done = player_merge(keep=kept, merge=merged, user=admin)
    return World(A, B, users, keep, gone, merge_done)
