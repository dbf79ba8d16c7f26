"""A card line in words for the pages: ``{{ line|line_words }}`` → "2 game points, plus 20"."""

from django import template

register = template.Library()


@register.filter
def line_words(line) -> str:
    if line is None:
        return ""
    points = "1 game point" if line.game_points == 1 else f"{line.game_points} game points"
    if line.plus:
        return f"{points}, plus {line.plus}"
    if line.minus:
        return f"{points}, minus {line.minus}"
    return points
