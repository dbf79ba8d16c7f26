"""Making the Consolation ("Consy") of a Main once its cut is made.

- eligible: a non-qualifier of the Main who started the qualifying round. The Main's
  ``consolation_eligibility`` setting decides whether that is every one of them
  ("non_qualifiers") or only those who were in the field for every qualifying game
  ("finishers": no late entry, no withdrawal before the last game; ``Entry.plays_in``).
The Consolation starts from the "acc-consolation" preset, belongs to the Main (``parent``), is
directed by the Main's directors, and has every eligible player entered and checked in, with
the e-mail address and phone they gave the Main. Each of them gets a new private link: their
Main page points to it (``selectors.player_state``), and those with an address are e-mailed it
(``consolation_emails``).
"""

from __future__ import annotations

from django.db import transaction

from tournaments.errors import ServiceError
from tournaments.models import Entry, Event, EventRole, Playoff, PlayoffSeed
from tournaments.services.audit import Kind, audit_record
from tournaments.services.consolation_emails import consolation_links_request
from tournaments.services.events import event_create_unaudited, settings_state

PRESET = "acc-consolation"


def consolation_of(*, main_event: Event) -> Event | None:
    return main_event.side_events.filter(kind=Event.Kind.CONSOLATION).order_by("pk").first()


def consolation_eligible(*, main_event: Event) -> list[Entry]:
    """The Main's entries who may play the Consolation, by the event's eligibility setting."""
    seeded = PlayoffSeed.objects.filter(playoff__event=main_event).values("entry_id")
    entries = (
        main_event.entries.exclude(status=Entry.Status.REGISTERED)
        .exclude(pk__in=seeded)
        .select_related("player")
    )
    if main_event.consolation_eligibility == "finishers":
        games = main_event.qualifying_games
        return [e for e in entries if all(e.plays_in(n) for n in range(1, games + 1))]
    return list(entries)


@transaction.atomic
def consolation_create(*, main_event: Event, user) -> Event:
    """The Main's Consolation with its eligible players checked in; the existing one if made."""
    main_event = Event.objects.select_for_update().get(pk=main_event.pk)
    existing = consolation_of(main_event=main_event)
    if existing is not None:
        return existing
    if main_event.kind != Event.Kind.MAIN:
        raise ServiceError(
            "A Consolation is made from a Main event.", field="event", code="not_a_main"
        )
    if not Playoff.objects.filter(event=main_event).exists():
        raise ServiceError(
            "Make the cut first: the Consolation is for those who miss it.",
            field="event",
            code="no_cut",
        )
    consolation = event_create_unaudited(
        user=user,
        name=f"{main_event.name} Consolation",
        preset=PRESET,
        parent=main_event,
        club=main_event.club,
        starts_on=main_event.starts_on,
    )
    directors = EventRole.objects.filter(event=main_event, role=EventRole.Role.DIRECTOR).exclude(
        user=user
    )
    EventRole.objects.bulk_create(
        [EventRole(event=consolation, user_id=d.user_id, role=d.role) for d in directors]
    )
    entries = Entry.objects.bulk_create(
        [_entry(consolation, e) for e in consolation_eligible(main_event=main_event)]
    )
    audit_record(
        event=consolation,
        actor=user,
        kind=Kind.SETTINGS,
        action="consolation_create",
        summary=f"Created as the Consolation of {main_event.name}, with {len(entries)} players "
        "entered and checked in",
        after=settings_state(consolation),
    )
    consolation_links_request(consolation=consolation, user=user)
    return consolation


def _entry(consolation: Event, main_entry: Entry) -> Entry:
    """A Consolation entry for the Main's ``main_entry``, with the contact given the Main."""
    return Entry(
        event=consolation,
        player_id=main_entry.player_id,
        status=Entry.Status.CHECKED_IN,
        email=main_entry.email,
        phone=main_entry.phone,
    )


def consolation_sync_entries(*, main_event: Event) -> None:
    """After the Main's bracket is rebuilt (before the Consolation starts): players who now
    qualify leave the Consolation (their entry is withdrawn before game 1, not deleted), and
    those who no longer qualify are entered, or get their earlier entry back."""
    consolation = consolation_of(main_event=main_event)
    if consolation is None:
        return
    eligible = {e.player_id: e for e in consolation_eligible(main_event=main_event)}
    entries = {e.player_id: e for e in consolation.entries.all()}
    for player_id, entry in entries.items():
        if player_id not in eligible and entry.status != Entry.Status.WITHDRAWN:
            entry.status, entry.withdrawn_after_game = Entry.Status.WITHDRAWN, 0
        elif player_id in eligible and entry.status == Entry.Status.WITHDRAWN:
            entry.status, entry.withdrawn_after_game = Entry.Status.CHECKED_IN, None
        else:
            continue
        entry.save(update_fields=["status", "withdrawn_after_game"])
    Entry.objects.bulk_create(
        _entry(consolation, eligible[p]) for p in sorted(set(eligible) - set(entries))
    )
    consolation_links_request(consolation=consolation)
