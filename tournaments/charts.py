"""Charts drawn on the server as SVG (pygal), readable on a phone: large type, strong colours,
no script needed (the SVG is shown as an image; pygal's tooltips script does not run there).
Each chart has a table of the same figures on its page for screen readers and print."""

from __future__ import annotations

import pygal
from csp.constants import UNSAFE_INLINE
from django.http import HttpResponse
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


BAND = Style(
    **{
        name: getattr(PEGBOARD, name)
        for name in ("background", "plot_background", "foreground", "foreground_strong",
                     "font_family", "label_font_size", "major_label_font_size",
                     "title_font_size")
    },
    colors=("#f3d2b0", "#ffffff", "#7a3e00"),  # band, the white under it, the rating line
    opacity="1",
    opacity_hover="1",
    stroke_width="4",
)  # fmt: skip


def sparse_labels(labels: list[str], most: int = 3) -> list[str]:
    """``labels`` with all but ``most`` of them blank: the first, the last and evenly between.
    The chart is drawn 420 wide and shown narrower on a phone (390 px): three dates fit under
    it at any length; every third date overlapped once the points were close together."""
    if len(labels) <= most:
        return list(labels)
    last = len(labels) - 1
    shown = {i * last // (most - 1) for i in range(most)}  # the middle ones rounded down
    return [label if i in shown else "" for i, label in enumerate(labels)]


def rating_history_svg(points: list[tuple[str, float, float]], *, title: str) -> str:
    """The rating (``mu``) event by event, in the band ``mu +- 2 sigma`` where the player's
    skill most likely lies: the upper edge filled, the lower filled white over it, then the
    line. ``points`` are (label, mu, sigma), oldest first."""
    lows = [mu - 2 * sigma for _, mu, sigma in points]
    highs = [mu + 2 * sigma for _, mu, sigma in points]
    floor, top = int(min(lows)) - 1, int(max(highs)) + 1
    step = max(1, (top - floor) // 4)
    chart = pygal.Line(
        style=BAND,
        y_labels=list(range(floor, top + 1, step)),
        js=[],
        disable_xml_declaration=True,
        show_legend=False,
        width=420,
        height=320,
        title=title,
        zero=floor,
        range=(floor, top),
        show_y_guides=False,
        show_dots=False,
        truncate_label=-1,
        margin=16,
        margin_right=72,  # room for the last date under the line's end
    )
    chart.x_labels = sparse_labels([label for label, _, _ in points])
    chart.add("Likely range (upper)", highs, fill=True)
    chart.add("Likely range (lower)", lows, fill=True)
    chart.add("Rating", [mu for _, mu, _ in points])
    return chart.render(is_unicode=True)


def svg_response(svg: str) -> HttpResponse:
    """A chart as an image response. The SVG styles itself inline, so its own Content-Security-
    Policy allows inline styles (an image runs no script, and pygal adds none: ``js=[]``)."""
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = "public, max-age=300"
    response._csp_update = {"style-src": [UNSAFE_INLINE]}  # what csp.decorators.csp_update sets
    return response
