"""Django's ``{# ... #}`` comments end on their own line: one spread over several lines is not a
comment at all and is printed on the page for everyone to read."""

from pathlib import Path


def test_every_short_comment_closes_on_its_own_line(settings):
    broken = [
        f"{path.relative_to(settings.BASE_DIR)}:{number}"
        for path in Path(settings.BASE_DIR, "templates").rglob("*.html")
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if line.count("{#") > line.count("#}")
    ]
    assert not broken, f"use {{% comment %}} for comments over several lines: {broken}"
