"""bench/instructions.py: a request's instructions are the difference of two runs' totals as
callgrind prints them, over the requests the second run adds."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import instructions  # noqa: E402  (bench/)

VALGRIND_END = """==4242== Events    : Ir
==4242== Collected : 1234567890
==4242==
==4242== I   refs:      1,234,567,890
"""


def test_the_total_is_read_from_what_callgrind_prints_at_the_end():
    assert instructions.collected(VALGRIND_END) == 1234567890


def test_a_run_that_printed_no_total_is_an_error_that_shows_its_output():
    with pytest.raises(RuntimeError, match="callgrind printed no total:\nTraceback"):
        instructions.collected("Traceback (most recent call last): ...")


def test_a_request_costs_the_difference_over_the_requests_added():
    assert instructions.per_request(3_000_000_000, 3_900_000_000, 200) == 4_500_000


def test_a_second_run_that_counted_no_more_is_refused():
    with pytest.raises(ValueError, match="counted no more"):
        instructions.per_request(3_000, 3_000, 200)
