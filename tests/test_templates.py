"""Every template's comments are ones Django hides: ``{# ... #}`` holds on one line only; one
spread over several lines is printed on the page as text (a player's page showed one)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_no_template_comment_spans_lines():
    found = []
    for template in sorted((ROOT / "templates").rglob("*.html")) + sorted(
        (ROOT / "tournaments").rglob("templates/**/*.html")
    ):
        for number, line in enumerate(template.read_text().splitlines(), 1):
            if line.count("{#") > line.count("#}"):
                found.append(f"{template.relative_to(ROOT)}:{number}")
    assert found == [], f"use {{% comment %}} for these: {found}"
