"""Fetch-and-check: every lookup that finds an object from a URL and checks the user's right to
it lives here, so the rules of who may see or change what are read in one place.

Each ``*_get_for_<who>`` returns the object or raises: ``Http404`` when it does not exist, when
it belongs to another event than the one in the URL, or when the user is anonymous (an address
reveals nothing to strangers); ``PermissionDenied`` (403) when a signed-in user lacks the role.

- roles: ``event_roles`` gives a user's roles in an event; a superuser directs every event.
- event: director (manage), staff (director or cross-checker: enter and settle lines), judging
  (director or judge), any role (the history), viewer (anyone once published), sanctioning
  (the ACC office: ``may_sanction``).
- objects inside an event (entry, role grant, game, table, match, match game, judge call) are
  looked up *within* the event the URL names, never by id alone.
- players' private links: ``entry_get_by_token`` (``entry_of_link`` for an entry read with
  more); club directors: ``club_get_for_director`` (the ACC office: ``club_get_for_office``);
  a player's record: ``player_get_for_editing``; jobs: ``job_get_for_user``; a link request:
  ``account_link_get_for_user``; a record change: ``record_change_get_for_user``; a weekend
  and its requests: ``weekend_get_for_director``, ``registration_get_for_director``.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils import timezone

from tournaments.models import (
    AccountLink,
    Club,
    ClubRole,
    Entry,
    Event,
    EventRole,
    Game,
    Job,
    JudgeCall,
    Match,
    MatchGame,
    Player,
    RecordChange,
    RegistrationRequest,
    Table,
    Weekend,
)
from tournaments.selectors.compiled import Compiled
from tournaments.selectors.games import VISIBLE_TO_ALL, game_get
from tournaments.selectors.player_identity import player_may_edit, player_record_decider
from tournaments.selectors.players import player_get
from tournaments.selectors.playoffs import matches_with_scores

DIRECTOR, CROSS_CHECKER, JUDGE = (
    EventRole.Role.DIRECTOR,
    EventRole.Role.CROSS_CHECKER,
    EventRole.Role.JUDGE,
)
STAFF_ROLES = {DIRECTOR, CROSS_CHECKER}
JUDGING_ROLES = {DIRECTOR, JUDGE}
ANY_ROLE = {DIRECTOR, CROSS_CHECKER, JUDGE}


def event_roles(*, event: Event, user) -> set[str]:
    """The user's roles in the event (a superuser directs every event)."""
    if not user.is_authenticated:
        return set()
    roles = set(EventRole.objects.filter(event=event, user=user).values_list("role", flat=True))
    if user.is_superuser:
        roles.add(DIRECTOR)
    return roles


def _event_row(pk: int):
    return Event.objects.filter(pk=pk)


# Every event page and spectator's reload looks its event up by id: compiled once per process
# and run as a prepared statement (building the ORM's query was most of a spectator's reload).
_EVENT = Compiled(_event_row, int)


def _event_for(event_id: int, user, roles: set[str], refusal: str) -> Event:
    event = _EVENT.first(event_id)
    if event is None:
        raise Http404("No such event.")
    if not event_roles(event=event, user=user) & roles:
        if not user.is_authenticated:
            raise Http404("No such event.")
        raise PermissionDenied(refusal)
    return event


def event_get_for_director(*, event_id: int, user) -> Event:
    """The event if ``user`` directs it. Others get 404 (anonymous) or 403 (signed in)."""
    return _event_for(event_id, user, {DIRECTOR}, "Only this event's directors may manage it.")


def event_get_for_staff(*, event_id: int, user) -> Event:
    """The event if ``user`` directs or cross-checks it: those who may enter and settle lines."""
    return _event_for(
        event_id, user, STAFF_ROLES, "Only this event's directors and cross-checkers may do this."
    )


def event_get_for_judging(*, event_id: int, user) -> Event:
    """The event if ``user`` judges or directs it. Others get 404 (anonymous) or 403."""
    return _event_for(
        event_id, user, JUDGING_ROLES, "Only this event's judges and directors may do this."
    )


def event_get_for_history(*, event_id: int, user) -> Event:
    """The event if ``user`` has any role in it (its history is for its staff)."""
    return _event_for(
        event_id, user, ANY_ROLE, "Only this event's directors, cross-checkers and judges may."
    )


def may_sanction(*, user) -> bool:
    """The ACC office: administrators, and people given ``sanction_event`` in the admin."""
    return user.is_authenticated and (user.is_staff or user.has_perm("tournaments.sanction_event"))


def event_get_for_sanctioning(*, event_id: int, user) -> Event:
    """The event, for the ACC office deciding its sanctioning; 404 (anonymous) or 403."""
    event = _EVENT.first(event_id)
    if event is None or not user.is_authenticated:
        raise Http404("No such event.")
    if not may_sanction(user=user):
        raise PermissionDenied("Only the ACC office or an administrator decides sanctioning.")
    return event


def event_get_for_sanction_status(*, event_id: int, user) -> Event:
    """The event, for its directors and the ACC office reading its sanctioning."""
    if may_sanction(user=user):
        return event_get_for_sanctioning(event_id=event_id, user=user)
    return event_get_for_director(event_id=event_id, user=user)


def event_get_for_viewer(*, event_id: int, user) -> Event:
    """The event if it is published or ``user`` has a role in it; otherwise 404."""
    event = _EVENT.first(event_id)
    if event is None or not (event.published or event_roles(event=event, user=user)):
        raise Http404("No such event.")
    return event


def role_grant_get_for_director(*, event_id: int, grant_id: int, user) -> EventRole:
    """A role grant of an event ``user`` directs; another event's grant, or none, is a 404."""
    event = event_get_for_director(event_id=event_id, user=user)
    grant = EventRole.objects.select_related("user", "event").filter(pk=grant_id, event=event)
    found = grant.first()
    if found is None:
        raise Http404("No such role in this event.")
    return found


def entry_get_for_director(*, entry_id: int, user) -> Entry:
    """The entry if ``user`` directs its event (the event's check decides 403 or 404)."""
    entry = Entry.objects.select_related("player", "event").filter(pk=entry_id).first()
    if entry is None:
        raise Http404("No such entry.")
    event_get_for_director(event_id=entry.event_id, user=user)
    return entry


def game_in(event: Event, number: int) -> Game:
    """Game ``number`` of ``event``, or 404."""
    game = game_get(event=event, number=number)
    if game is None:
        raise Http404("No such game.")
    return game


def game_get_for_director(*, event_id: int, number: int, user) -> Game:
    """Game ``number`` of an event ``user`` directs (the event's check decides 403 or 404)."""
    return game_in(event_get_for_director(event_id=event_id, user=user), number)


def game_get_for_staff(*, event_id: int, number: int, user) -> Game:
    """Game ``number`` of an event ``user`` directs or cross-checks."""
    return game_in(event_get_for_staff(event_id=event_id, user=user), number)


def game_get_for_viewer(*, event_id: int, number: int, user) -> tuple[Game, bool]:
    """The game if ``user`` may see its pairings (directors always, others once published),
    and whether ``user`` directs the event."""
    event = event_get_for_viewer(event_id=event_id, user=user)
    game = game_get(event=event, number=number)
    directs = DIRECTOR in event_roles(event=event, user=user)
    if game is None or not (directs or game.status in VISIBLE_TO_ALL):
        raise Http404("This game's pairings are not published yet.")
    return game, directs


def table_in(event: Event, number: int, table_number: int) -> Table:
    """Table ``table_number`` of game ``number`` of ``event``, or 404."""
    table = (
        Table.objects.select_related("game__event")
        .filter(game__event=event, game__number=number, number=table_number)
        .first()
    )
    if table is None:
        raise Http404("No such table.")
    return table


def table_get_for_staff(*, event_id: int, number: int, table_number: int, user) -> Table:
    """A table of game ``number`` if ``user`` directs or cross-checks the event (404/403)."""
    return table_in(event_get_for_staff(event_id=event_id, user=user), number, table_number)


def table_get_for_judging(*, event_id: int, number: int, table_number: int, user) -> Table:
    """Table ``table_number`` of game ``number`` if ``user`` judges or directs the event."""
    return table_in(event_get_for_judging(event_id=event_id, user=user), number, table_number)


def match_get_for_director(*, event_id: int, match_id: int, user) -> Match:
    """A match of an event ``user`` directs (the event's check decides 403 or 404)."""
    event = event_get_for_director(event_id=event_id, user=user)
    match = matches_with_scores().filter(pk=match_id, playoff__event=event).first()
    if match is None:
        raise Http404("No such match.")
    return match


def match_game_get_for_director(
    *, event_id: int, match_id: int, number: int, user
) -> tuple[Match, MatchGame]:
    """Game ``number`` of a match of an event ``user`` directs, with its match."""
    match = match_get_for_director(event_id=event_id, match_id=match_id, user=user)
    game = match.games.filter(number=number).first()
    if game is None:
        raise Http404("No such game.")
    return match, game


def match_get_for_judging(*, event_id: int, match_id: int, user) -> Match:
    """A playoff match if ``user`` judges or directs its event."""
    event = event_get_for_judging(event_id=event_id, user=user)
    match = (
        Match.objects.select_related("playoff__event", "entry_a__player", "entry_b__player")
        .filter(pk=match_id, playoff__event=event)
        .first()
    )
    if match is None:
        raise Http404("No such match.")
    return match


def judge_call_get_for_judging(*, call_id: int, user) -> JudgeCall:
    """A call if ``user`` judges or directs its event (the event's check decides 403 or 404)."""
    call = (
        JudgeCall.objects.select_related("table__game", "match__playoff").filter(pk=call_id).first()
    )
    if call is None:
        raise Http404("No such call.")
    event_id = call.table.game.event_id if call.table_id else call.match.playoff.event_id
    event_get_for_judging(event_id=event_id, user=user)
    return call


# Every changed poll and report reads it, compiled once (``selectors.compiled``); unordered:
# the model's ordering by name would join the players for nothing.
_ENTRY_BY_TOKEN = Compiled(
    lambda token: (
        Entry.objects.select_related("player", "event").filter(report_token=token).order_by()[:1]
    ),
    str,
)


def entry_get_by_token(*, token: str) -> Entry:
    """The entry whose private link this is; a revoked or mistyped link is a 404."""
    return entry_of_link(_ENTRY_BY_TOKEN.first(token) if token else None)


def entry_of_link(entry: Entry | None) -> Entry:
    """An entry read by its private link (None: no such link, a 404), its use noted."""
    if entry is None:
        raise Http404("This link is not valid. Ask the director for your scorecard link.")
    entry_link_used(entry=entry)
    return entry


def entry_link_used(*, entry: Entry) -> None:
    """The first use of a link that replaced another is noted (one update, only then): from
    that moment the director can no longer undo the new link (``services.links``)."""
    if entry.previous_report_token and entry.token_used_at is None:
        entry.token_used_at = timezone.now()
        Entry.objects.filter(pk=entry.pk, token_used_at__isnull=True).update(
            token_used_at=entry.token_used_at
        )


def club_directs(*, club: Club, user) -> bool:
    """Whether ``user`` directs the club (a superuser directs every club)."""
    return user.is_authenticated and (
        user.is_superuser or ClubRole.objects.filter(club=club, user=user).exists()
    )


def club_get_for_director(*, club_id: int, user) -> Club:
    """The club if ``user`` directs it; 404 if there is none, 403 if not theirs."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise Http404("No such club.")
    if not club_directs(club=club, user=user):
        raise PermissionDenied("Only the club's directors may do this.")
    return club


def club_get_for_office(*, club_id: int, user, directors_too: bool = False) -> Club:
    """The club, for the ACC office deciding its recognition (and, ``directors_too``, for its
    directors too: its recognition's state, its history); 404 (anonymous) or 403."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None or not user.is_authenticated:
        raise Http404("No such club.")
    if may_sanction(user=user) or (directors_too and club_directs(club=club, user=user)):
        return club
    who = "the club's directors and " if directors_too else ""
    raise PermissionDenied(f"Only {who}the ACC office or an administrator may do this.")


def weekend_directs(*, weekend: Weekend, user) -> bool:
    """Whether ``user`` runs the weekend: made it, directs one of its events, or is a superuser."""
    if not user.is_authenticated:
        return False
    if user.is_superuser or weekend.created_by_id == user.pk:
        return True
    return EventRole.objects.filter(
        event__weekend=weekend, user=user, role=EventRole.Role.DIRECTOR
    ).exists()


def weekend_get_for_director(*, weekend_id: int, user) -> Weekend:
    """The weekend if ``user`` runs it; 404 if there is none (or anonymous), 403 if not theirs."""
    weekend = Weekend.objects.filter(pk=weekend_id).first()
    if weekend is None or not user.is_authenticated:
        raise Http404("No such weekend.")
    if not weekend_directs(weekend=weekend, user=user):
        raise PermissionDenied("Only the directors of this weekend's events may do this.")
    return weekend


def registration_get_for_director(*, request_id: int, user, weekend_id: int | None = None):
    """A registration request of a weekend ``user`` runs (within ``weekend_id`` when the
    address names one); 404 if there is none (or anonymous), 403 if not theirs."""
    found = RegistrationRequest.objects.select_related("weekend").filter(pk=request_id)
    if weekend_id is not None:
        found = found.filter(weekend_id=weekend_id)
    found = found.first()
    if found is None or not user.is_authenticated:
        raise Http404("No such registration request.")
    if not weekend_directs(weekend=found.weekend, user=user):
        raise PermissionDenied("Only the directors of this weekend's events may do this.")
    return found


def player_get_for_editing(*, player_id: int, user) -> Player:
    """The player if ``user`` may change their record (see ``player_may_edit``); 403 if not."""
    player = player_get(player_id=player_id)
    if not player_may_edit(player=player, user=user):
        raise PermissionDenied(
            "Only an administrator or a director of an event this player entered may do this."
        )
    return player


def job_get_for_user(*, job_id: int, user) -> Job:
    """The job, if ``user`` may see it (staff, or whoever started it); otherwise 404."""
    job = Job.objects.filter(pk=job_id).first()
    if job is None or not user.is_authenticated:
        raise Http404("No such job.")
    if not (user.is_staff or job.created_by_id == user.pk):
        raise Http404("No such job.")
    return job


def account_link_get_for_user(*, link_id: int, user) -> AccountLink:
    """A request to link an account: the asker's own, or any for an administrator; else 404."""
    link = AccountLink.objects.select_related("player", "user").filter(pk=link_id).first()
    if link is None or not user.is_authenticated:
        raise Http404("No such request.")
    if not (user.is_staff or link.user_id == user.pk):
        raise Http404("No such request.")
    return link


def record_change_get_for_user(*, change_id: int, user) -> RecordChange:
    """A change to a player's record: for whoever proposed it and whoever decides it (an
    administrator or the player); otherwise 404."""
    change = RecordChange.objects.select_related("player").filter(pk=change_id).first()
    if change is None or not user.is_authenticated:
        raise Http404("No such change.")
    if not (
        change.proposed_by_id == user.pk or player_record_decider(player=change.player, user=user)
    ):
        raise Http404("No such change.")
    return change


def event_import_check(*, user) -> None:
    """Only a site administrator may restore an event from a backup here: a backup names its
    players, and one whose ACC number is known here is that player, so a file anyone could
    send would put made-up games on real players' records and make its sender their event's
    director. 403 otherwise, saying who may."""
    if not (user.is_authenticated and user.is_staff):
        raise PermissionDenied(
            "Only a site administrator may import an event here: its players' records are "
            "shared with every event. Ask an administrator of this site to make your account "
            "staff, or to import the file (manage.py import_event)."
        )
