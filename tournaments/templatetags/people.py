"""``{{ user|person }}``: a person's name as pages show it (``selectors.people.person_name``);
``{{ entry|entrant }}``: what an entry plays as, a player or a team with its partners
(``selectors.entrants.entrant_label``)."""

from django import template

from tournaments.selectors.entrants import entrant_label
from tournaments.selectors.people import person_name

register = template.Library()


@register.filter
def person(user) -> str:
    return person_name(user)


@register.filter
def entrant(entry) -> str:
    return entrant_label(entry) if entry is not None else ""
