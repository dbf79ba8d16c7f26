"""What waits before a director's next step, each item with the page that settles it.

Terms:
- blocker: one thing that stops a step (building the bracket, finalising), in words that name
  it ("Game 2, table 1: the two cards disagree") with ``url``, the page where it is fixed.
  A refusal names every blocker, never only the first.
- not verified: a table of a started game whose result is not verified yet: waiting for the
  players' cards ("open"), or for a cross-check ("flagged", the cards disagree).
- unfinalised: a finalised event whose final a later correction reopened: its MRP awards are
  withdrawn (``services.ledger``) until the director finalises it again.

The manage page and the refusals of ``services.playoffs`` and ``services.ledger`` read these.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse

from tournaments.models import Entry, Event, Finalisation, Game, Table
from tournaments.selectors import entrants

WITHDRAWN = "awards withdrawn: the final is not decided"  # the ledger's finalisation reason


@dataclass(frozen=True)
class Blocker:
    text: str
    url: str


@dataclass(frozen=True)
class Waiting:
    """The manage page's "what waits" box."""

    cross_checks: list[Blocker]  # tables whose cards disagree
    awaiting_cards: list[Blocker]  # tables still waiting for a player's card
    unfinalised: str  # why the results are no longer final, or ""

    @property
    def not_verified(self) -> int:
        return len(self.cross_checks) + len(self.awaiting_cards)


def _table_url(event_id: int, game: int, table: int, flagged: bool) -> str:
    name = "table-cross-check" if flagged else "table-detail"
    return reverse(name, args=[event_id, game, table])


def unverified_tables(*, event: Event) -> tuple[list[Blocker], list[Blocker]]:
    """(waiting for a cross-check, waiting for cards): every table of a started game that is
    not verified, game by game (one query)."""
    rows = (
        Table.objects.filter(
            game__event=event, game__status__in=(Game.Status.PUBLISHED, Game.Status.CLOSED)
        )
        .exclude(status=Table.Status.VERIFIED)
        .order_by("game__number", "number")
        .values_list("game__number", "number", "status")
    )
    flagged, waiting = [], []
    for game, table, status in rows:
        is_flagged = status == Table.Status.FLAGGED
        words = "the cards disagree: cross-check it" if is_flagged else "waiting for the cards"
        blocker = Blocker(
            f"Game {game}, table {table}: {words}", _table_url(event.pk, game, table, is_flagged)
        )
        (flagged if is_flagged else waiting).append(blocker)
    return flagged, waiting


def cut_blockers(*, event: Event) -> list[Blocker]:
    """Everything that stops the cut and the bracket; [] when it can be made."""
    if not event.qualifier_ratio:
        return [
            Blocker(
                "This event has no playoffs (the qualifier ratio is 0): set one in the settings.",
                reverse("event-settings", args=[event.pk]),
            )
        ]
    games = list(event.games.order_by("number").values_list("number", "status"))
    blockers = [
        Blocker(f"Game {n} is not closed yet: close it", reverse("game-detail", args=[event.pk, n]))
        for n, status in games
        if status != Game.Status.CLOSED
    ]
    if len(games) < event.qualifying_games:
        blockers.append(
            Blocker(
                f"Only {len(games)} of the {event.qualifying_games} qualifying games are "
                "played: pair the next game",
                reverse("event-manage", args=[event.pk]),
            )
        )
    flagged, waiting = unverified_tables(event=event)
    return blockers + flagged + waiting


def cut_tie_blocker(*, event: Event, tied: tuple[int, ...]) -> Blocker:
    """The players (or teams) tied across the cut, by name, with the tie playoff's page."""
    names = sorted(
        entrants.entry_team_names(entries=Entry.objects.filter(event=event, pk__in=tied)).values()
    )
    return Blocker(
        f"{', '.join(names)} are tied across the cut: record the tie playoff between them",
        reverse("tie-playoff", args=[event.pk]),
    )


def unfinalised_reason(*, event: Event) -> str:
    """Why a once-finalised event is no longer final ("" when it is final or never was)."""
    if event.finalised_at is not None:
        return ""
    last = Finalisation.objects.filter(event=event).order_by("-number").first()
    if last is None or WITHDRAWN not in last.reason:
        return ""
    return last.reason.partition(";")[0]


def event_waiting(*, event: Event) -> Waiting:
    flagged, waiting = unverified_tables(event=event)
    return Waiting(flagged, waiting, unfinalised_reason(event=event))
