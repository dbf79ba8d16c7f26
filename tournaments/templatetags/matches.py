"""A playoff match's games won for the pages: ``{{ match|match_score }}`` → "3–1".

Once the match is decided the winner's games come first ("Ann won 3–0", never "won 0–3");
before that, the upper line's, as the bracket lists the players.
"""

from django import template

register = template.Library()


@register.filter
def match_score(match) -> str:
    a, b = getattr(match, "wins_a", 0), getattr(match, "wins_b", 0)
    if match.winner_id is not None and match.winner_id == match.entry_b_id:
        return f"{b}–{a}"
    return f"{a}–{b}"
