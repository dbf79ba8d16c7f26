"""Recording what directors, cross-checkers and judges do: the one writer of the event history.

Every write service that a director, cross-checker or judge triggers calls ``audit_record``
exactly once, inside its own transaction, so the history row exists if and only if the action
happened. Players' own reports and calls are not audited here: their card lines and calls keep
their own record (``CardLine`` rows are never overwritten).

``before`` and ``after`` hold plain JSON (numbers, strings, lists, dicts): the state the action
changed, as a person would compare it ("status: registered" -> "status: checked in").
"""

from __future__ import annotations

from typing import Any

from tournaments.models import AuditEntry, Event, Game
from tournaments.selectors.people import person_name

Kind = AuditEntry.Kind


def audit_record(
    *,
    event: Event,
    actor,
    kind: str,
    action: str,
    summary: str,
    before: dict[str, Any] | None = None,
    after: dict[str, Any] | None = None,
    game: Game | int | None = None,
) -> AuditEntry:
    """Add one row to ``event``'s history. ``actor`` is the signed-in user (None for none)."""
    if kind not in Kind.values:
        raise ValueError(f"unknown audit kind {kind!r}")
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    number = game.number if isinstance(game, Game) else game
    return AuditEntry.objects.create(
        event_id=event.pk,
        actor=user,
        actor_name=person_name(user)[:200] if user else "",
        kind=kind,
        action=action,
        summary=summary[:500],
        game_number=number,
        before=before or {},
        after=after or {},
    )


def line_state(line) -> dict[str, int] | None:
    """A card line (engine or stored) as the history keeps it."""
    if line is None:
        return None
    return {"game_points": line.game_points, "plus": line.plus, "minus": line.minus}
