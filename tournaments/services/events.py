"""Setting up an event: create it from a preset, change its settings, close registration.

Settings may change only before play starts (before game 1 is paired); after that the
pairings, card lines and standings already depend on them. ``Event.LIVE_SETTINGS`` may change later.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from scoring.games import CardLine, CardLineError, ScoringSettings, validate_card_line
from tournaments.core.judging import ACC_PANEL
from tournaments.core.pairing import schedule_feasibility
from tournaments.core.playoff_lengths import lengths_of, lengths_problem
from tournaments.errors import ServiceError
from tournaments.models import Entry, Event, EventRole
from tournaments.presets import PRESETS
from tournaments.selectors.events import event_play_started
from tournaments.services.audit import Kind, audit_record
from tournaments.services.validation import clean_name, clean_play_date
from tournaments.services.weekends import weekend_event_check

# Settings that may still change once play has started: who makes a ruling changes no result
# already recorded (a club night's second judge may have to leave).
PLAY_SETTINGS = tuple(name for name in Event.SETTINGS if name not in Event.LIVE_SETTINGS)


def event_settings_check(values: dict[str, Any]) -> None:
    """Refuse settings that contradict each other (``values``: every name of
    ``Event.SETTINGS``); the model's validators check each value's own range."""
    try:
        scoring = ScoringSettings(
            target=values["target_score"],
            skunk_margin=values["skunk_margin"],
            double_skunk_margin=values["double_skunk_margin"],
            win_points=values["win_points"],
            skunk_points=values["skunk_points"],
            double_skunk_points=values["double_skunk_points"],
        )
    except ValueError as exc:
        raise ServiceError(str(exc), field="settings", code="inconsistent_scoring") from None
    sit_out = CardLine(values["sit_out_game_points"], values["sit_out_spread"], 0)
    try:
        validate_card_line(sit_out, scoring)
    except CardLineError as exc:
        raise ServiceError(
            f"The sit-out result must be a valid win: {exc.message}",
            field="sit_out_game_points",
            code="sit_out_result",
        ) from None
    problem = lengths_problem(values["playoff_best_of"])
    if problem:
        raise ServiceError(problem, field="playoff_best_of", code="odd_best_of")


@transaction.atomic
def event_create(*, user, name: str, preset: str, **fields: Any) -> Event:
    """A new event with the preset's settings (``fields`` override them); ``user`` directs it."""
    event = event_create_unaudited(user=user, name=name, preset=preset, **fields)
    audit_record(
        event=event,
        actor=user,
        kind=Kind.SETTINGS,
        action="event_create",
        summary=f"Event created from the {PRESETS[preset].name} preset",
        after=settings_state(event),
    )
    return event


def event_create_unaudited(*, user, name: str, preset: str, **fields: Any) -> Event:
    """``event_create`` for a service that records the action itself (the Consolation)."""
    if preset not in PRESETS:
        raise ServiceError(
            f"Unknown preset {preset!r}; choose one of {', '.join(PRESETS)}.",
            field="preset",
            code="unknown_preset",
        )
    if "sanctioned" in fields:
        raise ServiceError(
            "Sanctioning is granted by the ACC office, not set by a director: ask for it from "
            "the event's settings once it exists.",
            field="sanctioned",
            code="not_a_setting",
        )
    name = clean_name(name)
    if fields.get("weekend") is not None or fields.get("parent") is not None:
        fields["weekend"] = weekend_event_check(
            user=user, weekend=fields.get("weekend"), parent=fields.get("parent")
        )
    if "starts_on" in fields:
        fields["starts_on"] = clean_play_date(fields["starts_on"])
    chosen = PRESETS[preset]
    values = {**chosen.settings, **fields}
    event_settings_check(
        {key: values.get(key, getattr(Event, key, None)) for key in Event.SETTINGS}
    )
    values["playoff_best_of"] = lengths_of(values.get("playoff_best_of"))
    event = Event.objects.create(
        name=name, preset=preset, kind=values.pop("kind", chosen.kind), created_by=user, **values
    )
    EventRole.objects.create(event=event, user=user, role=EventRole.Role.DIRECTOR)
    return event


def settings_state(event: Event, names=None) -> dict[str, Any]:
    """The event's settings (or the ``names`` given) as the history keeps them."""
    names = names or ("name", "starts_on", "published", *Event.SETTINGS)
    return {name: getattr(event, name) for name in names}


@transaction.atomic
def event_update_settings(*, event: Event, user, **changes: Any) -> Event:
    event = Event.objects.select_for_update().get(pk=event.pk)
    unknown = set(changes) - set(Event.SETTINGS) - {"name", "starts_on", "published"}
    if unknown:
        raise ServiceError(f"Not a setting: {', '.join(sorted(unknown))}.", code="unknown")
    if set(changes) & set(PLAY_SETTINGS) and event_play_started(event=event):
        raise ServiceError(
            "Settings can change only before play starts: game 1 is already paired.",
            field="settings",
            code="play_started",
        )
    if "name" in changes:
        changes["name"] = clean_name(changes["name"])
    if "starts_on" in changes:
        changes["starts_on"] = clean_play_date(changes["starts_on"])
    before = settings_state(event, changes)
    for key, value in changes.items():
        setattr(event, key, value)
    event_settings_check({key: getattr(event, key) for key in Event.SETTINGS})
    _check_style(event)
    _check_judges_setting(event)
    event.playoff_best_of = lengths_of(event.playoff_best_of)
    if event.stage == Event.Stage.QUALIFYING:
        _check_schedule(event)
    event.save()
    after = settings_state(event, changes)
    changed = sorted(k for k in changes if before[k] != after[k])
    audit_record(
        event=event,
        actor=user,
        kind=Kind.SETTINGS,
        action="event_update_settings",
        summary="Settings changed: " + (", ".join(changed) if changed else "nothing"),
        before={k: before[k] for k in changed},
        after={k: after[k] for k in changed},
    )
    return event


def _check_style(event: Event) -> None:
    """A doubles event earns no Master Rating Points, so it is never sanctioned; an event with
    teams stays in teams."""
    if event.in_teams and event.sanctioned:
        raise ServiceError(
            "This event is sanctioned, and a doubles event earns no Master Rating Points (ACC "
            "satellites carry none). Make a separate doubles event, or ask the ACC office to "
            "withdraw the sanction first.",
            field="style",
            code="doubles_sanctioned",
        )
    teams = 0 if event.in_teams else event.teams.count()
    if teams:
        raise ServiceError(
            f"This event has {teams} team{'s' if teams != 1 else ''}: it stays a doubles event. "
            "Make a separate singles event for players entered alone.",
            field="style",
            code="has_teams",
        )


def _check_judges_setting(event: Event) -> None:
    if event.sanctioned and event.judges_per_ruling < ACC_PANEL:
        raise ServiceError(
            "This event is sanctioned, and the ACC's rulings are made by two judges: keep "
            "“Judges per ruling” at two. One judge may rule only in an unsanctioned event.",
            field="judges_per_ruling",
            code="sanctioned_two_judges",
        )


def _check_schedule(event: Event) -> None:
    field_size = event.entries.filter(status=Entry.Status.CHECKED_IN).count()
    problem = schedule_feasibility(field_size, event.qualifying_games, event.max_meetings)
    if problem:
        raise ServiceError(problem, field="qualifying_games", code="schedule_impossible")


@transaction.atomic
def event_close_registration(*, event: Event, user) -> Event:
    """Start the qualifying round: only checked-in entries play; the schedule must be possible."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    if event.stage != Event.Stage.REGISTRATION:
        raise ServiceError("Registration is already closed.", code="already_closed")
    field_size = event.entries.filter(status=Entry.Status.CHECKED_IN).count()
    if field_size < 2:
        raise ServiceError(
            f"At least two players must be checked in to start; {field_size} is.",
            code="too_few_players",
        )
    _check_schedule(event)
    event.stage = Event.Stage.QUALIFYING
    event.save(update_fields=["stage"])
    audit_record(
        event=event,
        actor=user,
        kind=Kind.SETTINGS,
        action="event_close_registration",
        summary=f"Registration closed with {field_size} players checked in",
        before={"stage": Event.Stage.REGISTRATION},
        after={"stage": Event.Stage.QUALIFYING, "players": field_size},
    )
    return event
