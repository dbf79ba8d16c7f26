"""CSV cells a spreadsheet opens as text, never as a formula."""

import pytest

from tournaments.exports import csv_cell


@pytest.mark.parametrize(
    "text", ["=SUM(A1)", "+1", "-2+3", "@cmd", "\tx", "\rx", " =x", "\u00a0=x", "=HYPERLINK(1)"]
)
def test_formula_cells_become_text(text):
    assert csv_cell(text) == "'" + text


@pytest.mark.parametrize("value", ["Ann Able", "O'Brien", "12", "a=b", "", "Zoë"])
def test_plain_text_is_left_alone(value):
    assert csv_cell(value) == value


def test_numbers_stay_numbers():
    assert (csv_cell(-5), csv_cell(3), csv_cell(None)) == (-5, 3, "")
