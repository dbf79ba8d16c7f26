"""Running a club: making one, its directors and settings, its nights, and its awards.

- club night: an event of the club (kind ``club_night``) made in one action from the club's
  defaults: the Grass Roots preset, the club's number of games, published, directed by the
  club's directors. It is played like any event (entries, check-in, pairing, the players'
  reports, the engine's checks, cross-checks) and finishes when its last game is verified.
- award: a 28 or 29 hand, which the engine must score as exactly that (hand and starter, as
  the cards were), or a 9-0 night, which the player's card of that night must show.

Making a club, changing its settings and its directors are rows of the club's history
(``services.club_history``); a new club is not recognised by the ACC office until it asks
(``services.club_recognition``).
"""

from __future__ import annotations

from datetime import date

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction

from scoring import CardError, score_hand
from tournaments.core.seasons import season_of
from tournaments.errors import ServiceError
from tournaments.models import Club, ClubAward, ClubRole, Entry, Event, EventRole, NightCard
from tournaments.selectors.access import club_directs
from tournaments.selectors.clubs import club_named
from tournaments.selectors.people import person_name
from tournaments.services.audit import Kind, audit_record
from tournaments.services.club_history import ClubKind, club_audit_record
from tournaments.services.events import event_create_unaudited
from tournaments.services.roles import person_find
from tournaments.services.validation import clean_name, clean_play_date

CLUB_SETTINGS = (
    "name",
    "city",
    "region",
    "season_start_month",
    "season_end_month",
    "grass_roots_rule",
    "drop_worst_nights",
    "night_games",
)


@transaction.atomic
def club_create(*, name: str, user, **settings) -> Club:
    """A new club; ``user`` is its first director."""
    if not name.strip():
        raise ServiceError("Give the club a name.", field="name", code="required")
    name = clean_name(name)
    same = club_named(name)
    if same is not None:
        raise ServiceError(
            f"{same.name} is already on Pegboard (capitals, accents and spacing aside): ask its "
            f"directors to add you at /clubs/{same.pk}/.",
            field="name",
            code="taken",
        )
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, **settings)
    except IntegrityError:
        raise ServiceError(
            f"A club called {name.strip()!r} already exists.", field="name", code="taken"
        ) from None
    ClubRole.objects.create(club=club, user=user)
    club_audit_record(
        club=club, actor=user, kind=ClubKind.SETTINGS, action="club_create",
        summary=f"Club {club.name} made; its maker directs it",
        after={**_settings(club), "recognised": False},
    )  # fmt: skip
    return club


def _settings(club: Club) -> dict:
    return {key: getattr(club, key) for key in CLUB_SETTINGS}


@transaction.atomic
def club_update_settings(*, club: Club, user, **changes) -> Club:
    club = Club.objects.select_for_update().get(pk=club.pk)
    unknown = set(changes) - set(CLUB_SETTINGS)
    if unknown:
        raise ServiceError(f"Not a club setting: {', '.join(sorted(unknown))}.", code="unknown")
    if "name" in changes:
        changes["name"] = clean_name(changes["name"])
        same = club_named(changes["name"])
        if same is not None and same.pk != club.pk:
            raise ServiceError(
                f"{same.name} is another club (capitals, accents and spacing aside): choose "
                "another name, or ask an administrator to merge the two at /clubs/admin/.",
                field="name",
                code="taken",
            )
    before = _settings(club)
    for key, value in changes.items():
        setattr(club, key, value)
    try:
        club.full_clean(validate_unique="name" in changes)
    except ValidationError as exc:
        field, messages = next(iter(exc.message_dict.items()))
        raise ServiceError(messages[0], field=field, code="invalid") from None
    club.save()
    after = _settings(club)
    changed = [key for key in CLUB_SETTINGS if before[key] != after[key]]
    if changed:
        club_audit_record(
            club=club, actor=user, kind=ClubKind.SETTINGS, action="club_update_settings",
            summary=f"Settings changed: {', '.join(key.replace('_', ' ') for key in changed)}",
            before={key: before[key] for key in changed},
            after={key: after[key] for key in changed},
        )  # fmt: skip
    return club


@transaction.atomic
def club_director_add(*, club: Club, actor, person: str) -> ClubRole:
    """Another director for the club, found by user name or name."""
    if not club_directs(club=club, user=actor):
        raise ServiceError("Only the club's directors may do this.", code="not_director")
    role, made = ClubRole.objects.get_or_create(club=club, user=person_find(person))
    if made:
        name = person_name(role.user)
        club_audit_record(
            club=club, actor=actor, kind=ClubKind.ROLES, action="club_director_add",
            summary=f"{name} made a director of the club",
            before={"user": role.user.get_username(), "director": False},
            after={"user": role.user.get_username(), "director": True},
        )  # fmt: skip
    return role


@transaction.atomic
def club_director_remove(*, club: Club, actor, user_id: int) -> None:
    """Someone no longer directs the club (the way back from ``club_director_add``). The roles
    they hold in the club's nights made so far are those events' own (each night's roles)."""
    if not club_directs(club=club, user=actor):
        raise ServiceError("Only the club's directors may do this.", code="not_director")
    club = Club.objects.select_for_update().get(pk=club.pk)
    role = ClubRole.objects.select_related("user").filter(club=club, user_id=user_id).first()
    if role is None:
        raise ServiceError(
            "That person does not direct this club: the club's page lists its directors.",
            code="not_a_director",
        )
    if ClubRole.objects.filter(club=club).count() == 1:
        raise ServiceError(
            "A club needs a director: add another director first, then remove this one.",
            code="last_director",
        )
    role.delete()
    name, username = person_name(role.user), role.user.get_username()
    club_audit_record(
        club=club, actor=actor, kind=ClubKind.ROLES, action="club_director_remove",
        summary=f"{name} no longer directs the club",
        before={"user": username, "director": True}, after={"user": username, "director": False},
    )  # fmt: skip


@transaction.atomic
def club_night_create(*, club: Club, user, played_on: date) -> Event:
    """A club night of ``club`` on ``played_on``, from the club's defaults (see the module)."""
    played_on = clean_play_date(played_on, field="date")
    club = Club.objects.select_for_update().get(pk=club.pk)
    number = Event.objects.filter(club=club, kind=Event.Kind.CLUB_NIGHT).count() + 1
    event = event_create_unaudited(
        user=user,
        name=f"{club.name}: club night {played_on:%-d %b %Y}",
        preset="grass-roots",
        club=club,
        starts_on=played_on,
        published=True,
        qualifying_games=club.night_games,
    )
    others = ClubRole.objects.filter(club=club).exclude(user=user).values_list("user_id", flat=True)
    EventRole.objects.bulk_create(
        EventRole(event=event, user_id=director, role=EventRole.Role.DIRECTOR)
        for director in others
    )
    audit_record(
        event=event,
        actor=user,
        kind=Kind.SETTINGS,
        action="club_night_create",
        summary=f"Club night {number} of {club.name} made from the club's defaults",
    )
    return event


def _hand_score(hand: str, starter: str, crib: bool) -> int:
    try:
        return score_hand(hand, starter, crib=crib).total
    except CardError as exc:
        raise ServiceError(str(exc), field="hand", code="cards") from None


@transaction.atomic
def club_award_record(
    *, club: Club, user, entry: Entry, kind: str, hand: str = "", starter: str = "", crib=False
) -> ClubAward:
    """Record an award at one of the club's nights (see the module for what is checked)."""
    if not club_directs(club=club, user=user):
        raise ServiceError("Only the club's directors record its awards.", code="not_director")
    award = club_award_build(
        club=club, entry=entry, kind=kind, hand=hand, starter=starter, crib=crib, recorded_by=user
    )
    award.save()
    return award


def club_award_build(
    *, club: Club, entry: Entry, kind: str, hand: str = "", starter: str = "", crib=False,
    recorded_by=None,
) -> ClubAward:  # fmt: skip
    """The award, checked (see the module) and not saved: for a director recording one, and
    for a backup being restored (whatever the file says, the engine and the card decide)."""
    event = entry.event
    if event.club_id != club.pk or event.kind != Event.Kind.CLUB_NIGHT:
        raise ServiceError("Choose a player of one of this club's nights.", code="not_club_night")
    played_on = event.starts_on or event.created_at.date()
    season = season_of(played_on, club.season_start_month, club.season_end_month)
    award = ClubAward(
        club=club, player_id=entry.player_id, event=event, kind=kind, recorded_by=recorded_by,
        season=season if season is not None else played_on.year,
    )  # fmt: skip
    if kind == ClubAward.Kind.GRAND_SLAM:
        card = NightCard.objects.filter(event=event, entry=entry).first()
        if card is None or card.games_won != card.games_played or card.games_played < 9:
            raise ServiceError(
                f"{entry.name}'s card of that night does not show every game won.",
                field="kind",
                code="not_a_grand_slam",
            )
    elif kind in (ClubAward.Kind.HAND_28, ClubAward.Kind.HAND_29):
        score = _hand_score(hand, starter, crib)
        if score != int(kind[-2:]):
            raise ServiceError(
                f"The engine counts {hand} with {starter} as {score}, not {kind[-2:]}.",
                field="hand",
                code="wrong_count",
            )
        award.hand, award.starter, award.crib, award.score = hand, starter, crib, score
    else:
        raise ServiceError(f"Unknown award {kind!r}.", field="kind", code="unknown")
    return award
