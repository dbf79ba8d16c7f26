"""``python -m scoring``: each command's output, help, and one-line errors with status 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.cli import main

REPO = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        status = main(list(argv))
    except SystemExit as exit_:  # argparse's --help and usage errors
        status = int(exit_.code or 0)
    out, err = capsys.readouterr()
    return status, out, err


def test_show_prints_the_spoken_count_and_total(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "show", "5H", "5D", "5S", "JC", "--starter", "5C")
    assert status == 0 and err == ""
    assert out.splitlines() == [
        "fifteen two, fifteen four, fifteen six, fifteen eight, fifteen ten, fifteen twelve, "
        "fifteen fourteen, fifteen sixteen, four of a kind is twenty-eight, and nobs is "
        "twenty-nine",
        "total: 29",
    ]


def test_show_crib_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "show", "2H", "4H", "6H", "8H", "--starter", "KS", "--crib", "--json"
    )
    data = json.loads(out)
    assert status == 0 and data["total"] == 0 and data["crib"] is True
    status, out, _ = run(capsys, "show", "2H", "4H", "6H", "8H", "--starter", "KS", "--json")
    data = json.loads(out)
    assert data["flush"] == 4 and data["combinations"] == [
        {"kind": "flush", "cards": ["2H", "4H", "6H", "8H"], "points": 4}
    ]


def test_play_prints_each_card(capsys: pytest.CaptureFixture[str]) -> None:
    argv = "play --pone KC 8C 4C 5C --dealer 5D 8D 6D 3D --plays KC 5D 8C 8D 4C 6D 5C 3D"
    status, out, _ = run(capsys, *argv.split())
    lines = out.splitlines()
    assert status == 0 and len(lines) == 9
    assert (
        "8D" in lines[3] and "count 31" in lines[3] and "thirty-one for 2, a pair for 2" in lines[3]
    )
    assert lines[-1] == "pone pegs 5, dealer pegs 11"


def test_line_explains_a_card_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "line", "--won", "--by", "35")
    assert status == 0 and out.strip() and err == ""
    status, out, err = run(capsys, "line", "--lost", "--by", "12")
    assert status == 0 and out.strip()


def test_line_refuses_an_inconsistent_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "line", "--won", "--by", "35", "--gp", "2")
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1


def test_simulate_prints_deal_by_deal(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "simulate", "--seed", "1")
    assert status == 0
    assert out.startswith("seed 1, game to 121")
    assert "deal 1: player" in out and "starter" in out
    last = out.strip().splitlines()[-1]
    assert last.startswith("player ") and " wins " in last and "121" in last
    status, again, _ = run(capsys, "simulate", "--seed", "1")
    assert again == out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ("show 5H 5D 5X JC --starter 5C", "'5X'"),
        ("show 5H 5D JC --starter 5C", "4 cards, not 3"),
        ("show 5H 5D 5S JC --starter 5H", "duplicate card"),
        ("show 5H 5D 5S JC", "--starter"),
        (
            "play --pone KC 8C 4C 5C --dealer 5D 8D 6D 3D --plays 5D KC 8C 8D 4C 6D 5C 3D",
            "wrong leader",
        ),
        ("play --pone KC 8C 4C 5C --dealer 5D 8D 6D 3D --plays KC 5D", "the play has 2 cards"),
        ("line --won --lost --by 3", "not allowed with"),
        ("simulate --seed x", "invalid int"),
        ("bogus", "invalid choice"),
        ("", "required"),
    ],
)
def test_bad_input_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: str, message: str
) -> None:
    status, out, err = run(capsys, *argv.split())
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err


@pytest.mark.parametrize("command", ["show", "play", "line", "simulate"])
def test_help_on_each_command(capsys: pytest.CaptureFixture[str], command: str) -> None:
    status, out, _ = run(capsys, command, "--help")
    assert status == 0 and out.startswith("usage: python -m scoring " + command)


def test_module_entry_point_has_no_traceback() -> None:
    bad = subprocess.run(
        [sys.executable, "-m", "scoring", "show", "5H", "5D", "5S", "ZZ", "--starter", "5C"],
        cwd=REPO, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert bad.returncode == 2 and bad.stdout == ""
    assert (
        bad.stderr.strip()
        == "error: not a card: 'ZZ' (write rank then suit, e.g. 10S, TS, JD, AH, 5♥)"
    )
    good = subprocess.run(
        [sys.executable, "-m", "scoring", "show", "5H", "5D", "5S", "JC", "--starter", "5C"],
        cwd=REPO, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert good.returncode == 0 and good.stdout.splitlines()[-1] == "total: 29"


PLAYS_THREE = "KC 5D 10H 5C 9D 9H 9C 8D 8H 8C 7D 7H"
PLAYS_FOUR = "4C 2D 3H 5S 9C AC 9D 9H 9S KC KD KH KS QD JH 10S"
PLAYS_GO = "KC 5D 10H 7D 5C 9D 9H 9C 8D 8H 8C 7H"
THREE_SEATS = ("--seat", "KC", "5C", "9C", "8C", "--seat", "5D", "9D", "8D", "7D")


def test_play_takes_three_hands(capsys: pytest.CaptureFixture[str]) -> None:
    plays = PLAYS_THREE.split(" ")
    status, out, err = run(
        capsys, "play", *THREE_SEATS, "--seat", "10H", "9H", "8H", "7H", "--plays", *plays
    )
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[1] == "seat 1  5D  count 15  2 (fifteen for 2)"
    assert lines[3] == "seat 0  5C  count 30  1 (go for 1)"
    assert lines[-1] == "seat 0 pegs 14, seat 1 pegs 4, seat 2 pegs 5"


def test_play_takes_four_hands_as_partners(capsys: pytest.CaptureFixture[str]) -> None:
    hands = ("4C 9C KC AC", "2D 9D KD QD", "3H 9H KH JH", "5S 9S KS 10S")
    seats = [token for hand in hands for token in ("--seat", *hand.split())]
    plays = PLAYS_FOUR.split(" ")
    status, out, _ = run(capsys, "play", *seats, "--plays", *plays)
    assert status == 0
    assert out.splitlines()[-2:] == [
        "seat 0 pegs 1, seat 1 pegs 2, seat 2 pegs 16, seat 3 pegs 12",
        "partners: seats 0 and 2 peg 17, seats 1 and 3 peg 14",
    ]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--seat", "10H", "9H", "8H", "7H", "--plays", "KC", "5D", "10H", "7D"), "has 4 cards"),
        (
            (
                "--seat",
                "10H",
                "9H",
                "8H",
                "7H",
                "--plays",
                *PLAYS_GO.split(" "),
            ),
            "7D: seat 1 had to say go",
        ),  # fmt: skip
        (("--pone", "AS", "--plays", "KC"), "give either --pone and --dealer, or --seat"),
    ],
)
def test_play_with_seats_refuses_in_one_line(
    capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], message: str
) -> None:
    status, out, err = run(capsys, "play", *THREE_SEATS, *argv)
    assert status == 2 and out == "" and message in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("style", ["three_handed", "four_handed", "canadian_doubles"])
def test_simulate_three_and_four_players(capsys: pytest.CaptureFixture[str], style: str) -> None:
    status, out, _ = run(capsys, "simulate", "--seed", "4", "--style", style, "--target", "61")
    lines = out.splitlines()
    assert status == 0 and lines[0].startswith(f"seed 4, {style.replace('_', '-')} game to 61")
    assert lines[1].startswith("deal 1: player ")
    assert " win" in lines[-1] and "61" in lines[-1]
