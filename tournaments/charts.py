"""Charts drawn on the server as SVG (pygal), readable on a phone: large type, strong colours,
no script needed (the SVG is shown as an image; pygal's tooltips script does not run there).
Each chart has a table of the same figures on its page for screen readers and print."""

from __future__ import annotations

import pygal
from pygal.style import Style

PEGBOARD = Style(
    background="#ffffff",
    plot_background="#ffffff",
    foreground="#111111",
    foreground_strong="#111111",
    foreground_subtle="#555555",
    colors=("#7a3e00", "#0047ab", "#075e1f"),
    font_family="system-ui, Arial, sans-serif",
    label_font_size=26,
    major_label_font_size=26,
    value_font_size=30,
    value_label_font_size=30,
    title_font_size=28,
    tooltip_font_size=22,
)


def points_by_year_svg(by_year: dict[int, int], *, title: str) -> str:
    """A bar a year, with the points written on each bar."""
    chart = pygal.Bar(
        style=PEGBOARD,
        js=[],
        disable_xml_declaration=True,
        show_legend=False,
        print_values=True,
        width=420,
        height=320,
        title=title,
        show_y_labels=False,  # each bar carries its figure: no crowded axis to read
        show_y_guides=False,
        margin=16,
    )
    years = sorted(by_year)
    chart.x_labels = [str(year) for year in years]
    chart.add("MRPs", [by_year[year] for year in years])
    return chart.render(is_unicode=True)
