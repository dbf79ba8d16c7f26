"""Teams of two in a doubles event: entering a team, and making one of two entries.

- team: two entries of one doubles (or Canadian Doubles) event playing as partners
  (``models.Team``). Each partner keeps their own entry, so their own player record, ACC number,
  private link and check-in; the team is what is paired and ranked.
- name: given by the director, else the partners' names joined ("Ann & Bob",
  ``selectors.entrants.team_default_name``).
- late team: a team entered after play started joins from the next unpaired game, as a late
  entry does (``entries``).
- blind draw: "draw partners" pairs the checked-in players without a partner at random
  (``core.partner_draw``; the seed is kept on the event); an odd player waits for a late
  partner, and is told so on their page.
Only an event whose ``style`` is doubles or Canadian Doubles has teams; a singles event refuses
them and says where the style is changed.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import transaction

from tournaments.core.partner_draw import draw_partners
from tournaments.errors import ServiceError
from tournaments.models import Entry, Event, Notice, Team
from tournaments.selectors.entrants import team_default_name
from tournaments.services.audit import Kind, audit_record
from tournaments.services.entries import Registration, entry_add_unaudited
from tournaments.services.keep_apart import keep_apart_wishes_settle
from tournaments.services.validation import clean_name

TEAM_SIZE = 2


def teams_allowed(event: Event) -> None:
    """Refuse teams in a singles event, naming where that is changed."""
    if not event.in_teams:
        raise ServiceError(
            f"{event.name} is a singles event: it has no teams. To play in pairs, set "
            '"How it is played" to Doubles on the event\'s settings page before play starts.',
            field="style",
            code="singles_event",
        )


def _team_name(name: str, entries: list[Entry]) -> str:
    if name.strip():
        return clean_name(name, field="name")
    return team_default_name([entry.name for entry in entries])[:200]


def team_make_unaudited(
    event: Event, entries: list[Entry], *, name: str = "", drawn: bool = False
) -> Team:
    """Tie two entries of ``event`` into a team (the callers lock the event and audit)."""
    if len(entries) != TEAM_SIZE or entries[0].pk == entries[1].pk:
        raise ServiceError("A team is two different players.", field="players", code="team_size")
    for entry in entries:
        if entry.event_id != event.pk:
            raise ServiceError(
                f"{entry.name} is not entered in {event.name}.", field="players", code="other_event"
            )
        if entry.status == Entry.Status.WITHDRAWN:
            raise ServiceError(
                f"{entry.name} has withdrawn: undo the withdrawal first.",
                field="players",
                code="withdrawn",
            )
    ids = [entry.pk for entry in entries]
    taken = Entry.objects.filter(pk__in=ids, team__isnull=False).select_related("team", "player")
    entry = taken.first()
    if entry is not None:
        raise ServiceError(
            f"{entry.name} already plays in the team {entry.team.name}.",
            field="players",
            code="already_in_team",
        )
    team = Team.objects.create(event=event, name=_team_name(name, entries), drawn=drawn)
    Entry.objects.filter(pk__in=[e.pk for e in entries]).update(team=team)
    for entry in entries:
        entry.team = team
    return team


def team_state(team: Team) -> dict:
    return {
        "team": team.pk,
        "name": team.name,
        "members": [{"entry": e.pk, "player": e.name} for e in team.members.order_by("id")],
    }


@transaction.atomic
def team_register(
    *,
    event: Event,
    players: list[Registration],
    user,
    name: str = "",
    check_in: bool = False,
) -> Team:
    """Enter a team: each partner is entered as a player is (``entries``; an ACC number finds
    a returning member), then the two are tied. Nothing is saved when either is refused."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    teams_allowed(event)
    if event.stage == Event.Stage.FINISHED:
        raise ServiceError("This event is finished.", code="event_finished")
    if len(players) != TEAM_SIZE:
        raise ServiceError(
            f"A team is two players; {len(players)} were given.", field="players", code="team_size"
        )
    entries = []
    for index, registration in enumerate(players):
        try:
            entries.append(entry_add_unaudited(event, registration, check_in=check_in))
        except ServiceError as exc:
            where = f"players[{index}].{exc.field}" if exc.field else "players"
            raise ServiceError(exc.message, field=where, code=exc.code) from None
    team = team_make_unaudited(event, entries, name=name)
    audit_record(
        event=event,
        actor=user,
        kind=Kind.ENTRIES,
        action="team_register",
        summary=f"Team {team.name} entered" + (" and checked in" if check_in else ""),
        after=team_state(team),
    )
    keep_apart_wishes_settle(event=event, user=user)  # a wish may name a partner
    return team


@transaction.atomic
def team_form(*, event: Event, entries: list[Entry], user, name: str = "") -> Team:
    """Make a team of two players already entered (a late partner, a pair the director sets)."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    teams_allowed(event)
    if event.stage == Event.Stage.FINISHED:
        raise ServiceError("This event is finished.", code="event_finished")
    team = team_make_unaudited(event, entries, name=name)
    audit_record(
        event=event,
        actor=user,
        kind=Kind.ENTRIES,
        action="team_form",
        summary=f"{team_default_name([e.name for e in entries])} made the team {team.name}",
        after=team_state(team),
    )
    return team


@dataclass(frozen=True)
class DrawResult:
    """What a blind draw made: its seed, the teams, and the player left waiting (or None)."""

    seed: int
    teams: list[Team]
    waiting: Entry | None

    @property
    def message(self) -> str:
        count = len(self.teams)
        text = f"{count} team{'s' if count != 1 else ''} drawn (seed {self.seed})."
        if self.waiting is not None:
            text += f" {self.waiting.name} waits for a late partner."
        return text


WAITING_NOTICE = (
    "Partners were drawn and you were the odd one out: you wait for a late partner. The "
    "director draws again when another player checks in."
)


@transaction.atomic
def partners_draw(*, event: Event, user, seed: int | None = None) -> DrawResult:
    """Draw partners at random among the checked-in players without one (the blind draw,
    ``core.partner_draw``); the seed is stored on the event so the draw can be checked. An odd
    player is told on their page and waits for a late partner."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    teams_allowed(event)
    if event.stage == Event.Stage.FINISHED:
        raise ServiceError("This event is finished.", code="event_finished")
    pool = {
        entry.pk: entry
        for entry in event.entries.filter(status=Entry.Status.CHECKED_IN, team__isnull=True)
        .select_related("player")
        .order_by("pk")
    }
    if len(pool) < TEAM_SIZE:
        raise ServiceError(
            f"A draw needs at least two checked-in players without a partner; there "
            f"{'is' if len(pool) == 1 else 'are'} {len(pool)}. Check players in first.",
            code="too_few_to_draw",
        )
    seed = secrets.randbits(62) if seed is None else seed
    drawn = draw_partners(pool, seed)
    teams = [team_make_unaudited(event, [pool[a], pool[b]], drawn=True) for a, b in drawn.teams]
    waiting = pool[drawn.waiting] if drawn.waiting is not None else None
    if waiting is not None:
        Notice.objects.create(entry=waiting, message=WAITING_NOTICE)
    event.partner_draw_seed = seed
    event.save(update_fields=["partner_draw_seed"])
    result = DrawResult(seed=seed, teams=teams, waiting=waiting)
    audit_record(
        event=event,
        actor=user,
        kind=Kind.ENTRIES,
        action="partners_draw",
        summary=f"Blind draw of partners: {result.message}",
        after={
            "seed": seed,
            "teams": [team_state(team) for team in teams],
            "waiting": waiting.name if waiting else None,
        },
    )
    return result
