"""The rating chart's dates stay apart on a phone (issue 22: they overlapped at 390 px)."""

import re

import pytest

from tournaments.charts import rating_history_svg, sparse_labels


@pytest.mark.parametrize("count", [1, 2, 3, 4, 8, 13, 31, 200])
def test_at_most_three_labels_the_first_and_the_last_among_them(count):
    labels = [f"label {i}" for i in range(count)]
    shown = [label for label in sparse_labels(labels) if label]
    assert len(shown) == min(count, 3)
    assert shown[0] == labels[0] and shown[-1] == labels[-1]
    assert len(sparse_labels(labels)) == count  # one per point: the line keeps every point


def test_the_chart_prints_three_dates_for_a_long_history():
    points = [("start", 25.0, 8.3)] + [(f"{d} Sep 26", 25.0 + d / 10, 8.0) for d in range(1, 13)]
    svg = rating_history_svg(points, title="Ada: rating")
    x_axis = svg.split('<g class="axis x">', 1)[1].split('<g class="axis y', 1)[0]
    printed = re.findall(r'<text x="[^"]*" y="[^"]*" class="">([^<]+)</text>', x_axis)
    assert printed == ["start", "6 Sep 26", "12 Sep 26"]
