"""The second step before an action that is hard to take back (withdraw a player, replace a
private link, close a game, re-pair a game): a page of its own that says what will happen, with
one button to do it and a link back. Not a browser pop-up, which a tap dismisses by reflex.

A view asks ``confirmed(request)``: True only for a POST carrying ``confirm=yes`` (what the
page's button sends). Anything else gets ``confirm_page``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.shortcuts import render


@dataclass(frozen=True)
class Confirmation:
    title: str
    question: str
    action_label: str
    cancel_url: str
    details: list[str] = field(default_factory=list)
    extra: dict[str, str] = field(default_factory=dict)  # hidden fields to post again


def confirmed(request) -> bool:
    return request.method == "POST" and request.POST.get("confirm") == "yes"


def confirm_page(request, confirmation: Confirmation, *, event=None):
    return render(
        request,
        "tournaments/confirm.html",
        {"confirmation": confirmation, "event": event, "action_url": request.path},
    )
