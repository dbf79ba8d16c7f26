"""How many judges make a ruling.

Terms:

- panel: the judges named on one ruling.
- judges_per_ruling: the event's setting, the least panel a ruling needs: 2 (the ACC's "two
  certified judges hear a dispute") or 1 (a club night or other unsanctioned event with one
  volunteer judge; two may still rule together).
- third judge: either player may ask for one; the ruling of the three is final. An appeal is
  always heard by three, whatever the setting.

A sanctioned event's rulings need two judges whatever its setting says: the ACC's rule.
"""

from __future__ import annotations

ACC_PANEL = 2
APPEAL_PANEL = 3
PANEL_CHOICES = ((1, "One judge"), (2, "Two judges"))
_WORDS = {1: "one judge", 2: "two judges", 3: "three judges"}


def judges_needed(*, setting: int, sanctioned: bool) -> int:
    """The panel a ruling needs (without a third judge)."""
    return max(setting, ACC_PANEL) if sanctioned else setting


def panel_words(needed: int) -> str:
    """ "two judges, or three when a player asks for a third judge" """
    least = "one judge or two" if needed == 1 else _WORDS[needed]
    return f"{least}, or three when a player asks for a third judge"


def panel_problem(*, count: int, needed: int, third_judge: bool) -> tuple[str, str] | None:
    """``(field, message)`` when ``count`` judges cannot make the ruling, else None.

    Without a third judge the panel is ``needed`` judges or more, up to two: a one-judge night
    that has two judges free may still send both."""
    if count > APPEAL_PANEL:
        return ("judges", f"A ruling is made by three judges at most; {count} chosen.")
    if third_judge:
        if count == APPEAL_PANEL:
            return None
        return (
            "third_judge",
            f"A player asked for a third judge, so three judges make this ruling; {count} "
            "chosen. Tick three judges, or untick “A player asked for a third judge”.",
        )
    if needed <= count <= ACC_PANEL:
        return None
    if count == APPEAL_PANEL:
        return (
            "third_judge",
            "Three judges are chosen: tick “A player asked for a third judge”, or choose "
            f"{_WORDS[needed]}.",
        )
    return (
        "judges",
        f"A ruling in this event is made by {panel_words(needed)}; {count} chosen. "
        f"Tick {_WORDS[needed]}.",
    )
