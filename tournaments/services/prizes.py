"""Setting the prize money of an event: fees, payout percentages, the qualifier pool, and the
director's adjustments to single payouts. The arithmetic is ``core.money``'s; this module
checks the director's input with it and stores what passes.

- amount by hand: the director sets what each holder of one payout line receives (in doubles,
  each team on it: the partners share it as ``core.money.partner_shares`` says); the
  difference from the computed amount is stored as the line's adjustment (in cents), so a later
  change to the fees or percentages keeps the director's change visible, never silently lost.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from tournaments.core.money import GRADUATIONS, SPLITS, dollars, partner_shares
from tournaments.errors import ServiceError
from tournaments.models import Event, Playoff
from tournaments.selectors.final import NO_POOL, band_of_key, event_payouts
from tournaments.services.audit import Kind, audit_record

MONEY_FIELDS = ("entry_fee_cents", "sanctioning_fee_cents", "payout_percents", "qualifier_pool")


def _clean_percents(percents: dict[str, Any]) -> dict[str, Any]:
    cleaned = {}
    for key, value in percents.items():
        try:
            band_of_key(key)
        except ValueError as exc:
            raise ServiceError(str(exc), field="payout_percents", code="not_a_band") from None
        if value in (None, "", 0, "0"):
            continue  # an unpaid band is simply left out
        cleaned[str(key)] = str(value) if not isinstance(value, int) else value
    return cleaned


def _clean_pool(pool: dict[str, Any]) -> dict[str, Any]:
    split = pool.get("split") or NO_POOL
    if split == NO_POOL:
        return {}
    if split not in SPLITS:
        raise ServiceError(
            f"The qualifier pool is split {', '.join(SPLITS)} or none (got {split!r}).",
            field="qualifier_pool",
            code="unknown_split",
        )
    cleaned: dict[str, Any] = {"split": split, "percent": pool.get("percent")}
    if cleaned["percent"] in (None, ""):
        raise ServiceError(
            "Give the qualifier pool's percentage of the prize fund.",
            field="qualifier_pool",
            code="pool_percent_required",
        )
    cleaned["percent"] = str(cleaned["percent"])
    if split == "graduated":
        if pool.get("graduation") not in GRADUATIONS:
            raise ServiceError(
                f"A graduated pool is 1 in {', '.join(map(str, GRADUATIONS))}.",
                field="qualifier_pool",
                code="graduation",
            )
        cleaned["graduation"] = pool["graduation"]
    return cleaned


def money_settings_clean(
    *, payout_percents: dict[str, Any], qualifier_pool: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The payout percentages and the qualifier pool as they are stored, or a ServiceError
    naming the one that is not a setting (a band that is not one, a split that is none)."""
    for name, value in (("payout_percents", payout_percents), ("qualifier_pool", qualifier_pool)):
        if not isinstance(value, dict):
            raise ServiceError("Expected an object of settings.", field=name, code="not_an_object")
    return _clean_percents(payout_percents), _clean_pool(qualifier_pool)


@transaction.atomic
def event_money_update(
    *,
    event: Event,
    user,
    entry_fee_cents: int,
    sanctioning_fee_cents: int,
    payout_percents: dict[str, Any],
    qualifier_pool: dict[str, Any],
) -> Event:
    """Store the money settings if the core accepts them with any stored adjustments."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    before = {name: getattr(event, name) for name in MONEY_FIELDS}
    event.entry_fee_cents = entry_fee_cents
    event.sanctioning_fee_cents = sanctioning_fee_cents
    event.payout_percents, event.qualifier_pool = money_settings_clean(
        payout_percents=payout_percents, qualifier_pool=qualifier_pool
    )
    table = event_payouts(event=event)
    if table.error:
        raise ServiceError(table.error, field="payout_percents", code="payouts_invalid")
    event.save(update_fields=list(MONEY_FIELDS))
    after = {name: getattr(event, name) for name in MONEY_FIELDS}
    changed = [name for name in MONEY_FIELDS if before[name] != after[name]]
    audit_record(
        event=event,
        actor=user,
        kind=Kind.MONEY,
        action="event_money_update",
        summary="Prize money settings saved"
        + (f": {', '.join(changed)} changed" if changed else " (no change)"),
        before={k: before[k] for k in changed},
        after={k: after[k] for k in changed},
    )
    return event


@transaction.atomic
def payout_set_by_hand(*, event: Event, key: str, cents_each: int, user) -> Playoff:
    """Pay each holder of line ``key`` ``cents_each``; refused if the total exceeds the fund."""
    playoff = Playoff.objects.select_for_update().filter(event=event).first()
    if playoff is None:
        raise ServiceError(
            "Payouts can be adjusted once the cut is made.", field="key", code="no_playoff"
        )
    event = playoff.event  # the money settings as stored, not as the caller last read them
    table = event_payouts(event=event, playoff=playoff)
    if table.computed is None:
        raise ServiceError(table.error, field="key", code="payouts_invalid")
    computed = {str(line.key): line.each for line in table.computed.lines}
    if key not in computed:
        raise ServiceError(
            f"No payout line {key!r}; the lines are {', '.join(computed)}.",
            field="key",
            code="no_line",
        )
    if cents_each < 0:
        raise ServiceError("A payout cannot be negative.", field="amount", code="negative")
    adjustments = {k: v for k, v in playoff.payout_adjustments.items() if k != key}
    if cents_each != computed[key]:
        adjustments[key] = cents_each - computed[key]
    playoff.payout_adjustments = adjustments
    checked = event_payouts(event=event, playoff=playoff)
    if checked.error:
        raise ServiceError(
            f"Refused: {checked.error}. Lower another payout first.",
            field="amount",
            code="over_fund",
        )
    before = table.payouts.lines
    playoff.save(update_fields=["payout_adjustments"])
    previous = next((line.each for line in before if str(line.key) == key), None)
    audit_record(
        event=event,
        actor=user,
        kind=Kind.MONEY,
        action="payout_set_by_hand",
        summary=f"Places {key} set by hand to ${dollars(cents_each)} each"
        + _split_words(event, cents_each),
        before={"key": key, "each_cents": previous},
        after={"key": key, "each_cents": cents_each, "computed_cents": computed[key]},
    )
    return playoff


def _split_words(event: Event, cents: int) -> str:
    """In doubles, how a team's payout is split: " team ($50.01 and $50.00 to the partners)"."""
    if not event.in_teams:
        return ""
    shares = " and ".join(f"${dollars(c)}" for c in partner_shares(cents))
    return f" team ({shares} to the partners)"


@transaction.atomic
def payout_adjustments_clear(*, event: Event, user) -> int:
    """Back to the computed payouts; returns how many adjustments were dropped."""
    playoff = Playoff.objects.select_for_update().filter(event=event).first()
    if playoff is None or not playoff.payout_adjustments:
        return 0
    dropped = dict(playoff.payout_adjustments)
    playoff.payout_adjustments = {}
    playoff.save(update_fields=["payout_adjustments"])
    audit_record(
        event=event,
        actor=user,
        kind=Kind.MONEY,
        action="payout_adjustments_clear",
        summary=f"{len(dropped)} payout adjustment(s) removed: payouts as computed",
        before={"adjustments_cents": dropped},
    )
    return len(dropped)
