"""The generated tests run without Hypothesis's per-example time limit (tests/conftest.py)."""

from hypothesis import settings


def test_generated_examples_have_no_time_limit():
    assert settings.default.deadline is None
