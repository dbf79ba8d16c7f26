"""Money on the pages: ``{{ row.payout_cents|money }}`` → "$180.00" (``core.money.dollars``)."""

from django import template

from tournaments.core.money import dollars

register = template.Library()


@register.filter
def money(cents) -> str:
    if cents is None or cents == "":
        return ""
    return f"${dollars(cents)}"
