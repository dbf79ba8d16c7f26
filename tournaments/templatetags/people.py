"""``{{ user|person }}``: a person's name as pages show it (``selectors.people.person_name``)."""

from django import template

from tournaments.selectors.people import person_name

register = template.Library()


@register.filter
def person(user) -> str:
    return person_name(user)
