"""A service's refusal on a page: as a message (a ``Blocked`` one lists every blocker with a
link to the page that settles it; the message stays safe HTML through the session), as a
form error next to the field it names, or as a ``RowRefusal`` on a page of many small forms."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.utils.html import format_html, format_html_join

from tournaments.errors import Blocked, ServiceError


def refusal_message(request, exc: ServiceError) -> None:
    if not isinstance(exc, Blocked):
        messages.error(request, exc.message)
        return
    items = format_html_join(
        "", '<li><a href="{}">{}</a></li>', ((b.url, b.text) for b in exc.blockers)
    )
    messages.error(request, format_html('{}<ul class="blockers">{}</ul>', exc.lead, items))


def done_or_refused(request, action, success: str) -> bool:
    """Run ``action`` (a service call): its refusal as a message (``refusal_message``), or
    ``success`` as one. True when it was done."""
    try:
        action()
    except ServiceError as exc:
        refusal_message(request, exc)
        return False
    messages.success(request, success)
    return True


def refusal_on_form(form, exc: ServiceError) -> None:
    """Next to the field the refusal names, or at the top of the form when it names none."""
    form.add_error(exc.field if exc.field in form.fields else None, exc.message)


@dataclass(frozen=True)
class RowRefusal:
    """A refused form among many alike on one page (one per request or per event): which one
    (``step`` and the row's ``row_id``), why, what was typed (put back in its field), and for a
    state that changed meanwhile, the place that shows what happened (``link``)."""

    step: str
    row_id: int
    message: str
    typed: str = ""
    link: str = ""
    link_text: str = ""
    conflict: bool = False  # the row changed meanwhile: its form is gone, the typed text shown
