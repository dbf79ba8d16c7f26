"""Reading a list of players as a director's spreadsheet saves it (CSV), forgivingly.

Terms:
- field: what Pegboard reads from a row: ``name``, ``acc_number``, ``club``, ``email``,
  ``phone`` (``FIELDS``). Only a name is required.
- header: the first row, naming the columns. A header is recognised in any case and spacing,
  and under the names spreadsheets commonly use (``ALIASES``): "ACC #", "Member No" and
  "acc_number" all give the ACC number. A "First Name" and a "Last Name" column are joined
  into the name when there is no name column (or the name cell is empty).
- delimiter: a comma, a semicolon (Excel in much of Europe) or a tab (copied from a
  spreadsheet); detected with ``csv.Sniffer`` limited to those three and checked against the
  header, so a list that reads into a name column wins over a guess that does not.
- row: a row of the file as a spreadsheet numbers it: the header is row 1, blank rows count.
  Rows with every cell empty are not players and are left out (their numbers are not
  reused). Cells are read with their spacing tidied: "Ann   Able" is "Ann Able".
- unused column: a header that names no field ("Paid", "Notes"): it is read past, and named
  so the director knows it was not imported.
- overflowing row: a row with filled cells past the last header, most often a name with a
  comma in it that was not quoted ("Smith, John"); reading it would silently cut the name.
- teams (a doubles event): a "Team" column gives each row's team (two rows share a team's
  name), or a "Partner" column (with "Partner ACC #") puts both partners on one row
  (``TEAM_FIELDS``); a row has them only when the list has those columns.
Nothing here touches the database; ``services.entries_import`` turns rows into entries.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field

FIELDS = ("name", "acc_number", "club", "email", "phone")
TEAM_FIELDS = ("team", "partner", "partner_acc_number")
DELIMITERS = ",;\t"
SNIFF_SAMPLE = 4096  # enough rows to tell; the sniffer slows with the square of it

_ALIASES = {
    "name": (
        "name",
        "player",
        "player name",
        "players name",
        "full name",
        "player s name",
        "player 1",
        "first player",
    ),
    "first_name": ("first name", "first", "firstname", "given name", "forename"),
    "last_name": ("last name", "last", "lastname", "surname", "family name"),
    "acc_number": (
        "acc number",
        "acc#",
        "acc no",
        "acc num",
        "acc",
        "acc id",
        "acc member number",
        "acc membership number",
        "member",
        "member#",
        "member no",
        "member number",
        "membership number",
        "membership no",
        "membership#",
    ),
    "club": ("club", "home club", "club name", "clubs"),
    "team": ("team", "team name", "pair", "pair name"),
    "partner": ("partner", "partner name", "partner s name", "player 2", "second player"),
    "partner_acc_number": (
        "partner acc",
        "partner acc#",
        "partner acc number",
        "partner acc no",
        "partner member number",
        "player 2 acc",
        "player 2 acc#",
    ),
    "email": ("email", "e mail", "email address", "e mail address", "mail"),
    "phone": (
        "phone",
        "phone number",
        "phone#",
        "phone no",
        "telephone",
        "tel",
        "mobile",
        "mobile phone",
        "cell",
        "cell phone",
    ),
}
ALIASES = {alias: target for target, names in _ALIASES.items() for alias in names}
NAME_HELP = 'a "Name" column (or "First Name" and "Last Name")'
_SAID = {"first_name": "first name", "last_name": "last name", "acc_number": "ACC number"}


class ListError(ValueError):
    """The file as a whole cannot be read as a list of players (``code`` names the rule)."""

    def __init__(self, message: str, code: str):
        super().__init__(message)
        self.message = message
        self.code = code


@dataclass(frozen=True)
class PlayerList:
    """``rows`` is (row, values by field); ``columns`` the header each field was read from,
    as written in the file, for messages; ``unused`` the headers read past."""

    rows: list[tuple[int, dict[str, str]]]
    columns: dict[str, str]
    unused: list[str] = field(default_factory=list)
    delimiter: str = ","
    overflowing: list[int] = field(default_factory=list)  # rows with cells past the header


def header_key(header: str) -> str:
    """A header with case, spacing and punctuation put aside: "ACC #" -> "acc#",
    "Player's Name" -> "player s name", "acc_number" -> "acc number"."""
    key = re.sub(r"[^0-9a-z#]+", " ", header.casefold()).strip()
    return re.sub(r"\s*#\s*", "#", key).rstrip()


def _sniffed(text: str) -> str | None:
    try:
        return csv.Sniffer().sniff(text[:SNIFF_SAMPLE], delimiters=DELIMITERS).delimiter
    except csv.Error:  # one column, or too little to tell
        return None


def _reader(text: str, delimiter: str):
    # newline="": a line may end in \r\n, \n or a lone \r (older Excel on a Mac)
    return csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)


def _first_row(text: str, delimiter: str) -> list[str]:
    try:
        return next(_reader(text, delimiter), [])
    except csv.Error:
        return []


def _columns(headers: list[str]) -> tuple[dict[str, int], list[str]]:
    """Which column each field is read from, and the headers no field uses."""
    found: dict[str, int] = {}
    unused = []
    for index, header in enumerate(headers):
        target = ALIASES.get(header_key(header))
        if target is None:
            if header.strip():
                unused.append(header.strip())
        elif target in found:
            first = headers[found[target]].strip()
            raise ListError(
                f'The columns "{first}" and "{header.strip()}" both give the '
                f"{_SAID.get(target, target)}: keep one of them.",
                code="duplicate_column",
            )
        else:
            found[target] = index
    return found, unused


def _has_name(found: dict[str, int]) -> bool:
    return "name" in found or ("first_name" in found and "last_name" in found)


def _delimiter(text: str) -> str:
    """The sniffed delimiter when its header gives a name; else the first that does (most
    used in the header first); else the sniffed one, or a comma."""
    sniffed = _sniffed(text)
    header_line = (text.splitlines() or [""])[0]
    by_use = sorted(DELIMITERS, key=lambda d: -header_line.count(d))
    for delimiter in ([sniffed] if sniffed else []) + by_use:
        try:
            found, _ = _columns(_first_row(text, delimiter))
        except ListError:
            continue
        if _has_name(found):
            return delimiter
    return sniffed or (by_use[0] if header_line.count(by_use[0]) else ",")


def _labels(headers: list[str], found: dict[str, int]) -> dict[str, str]:
    labels = {target: headers[index].strip() for target, index in found.items()}
    joined = " + ".join(labels[k] for k in ("first_name", "last_name") if k in labels)
    if "name" not in labels and joined:
        labels["name"] = joined
    return labels


def _values(cells: list[str], found: dict[str, int]) -> dict[str, str]:
    def cell(target: str) -> str:
        index = found.get(target)
        return " ".join(cells[index].split()) if index is not None and index < len(cells) else ""

    values = {target: cell(target) for target in FIELDS}
    values.update({target: cell(target) for target in TEAM_FIELDS if target in found})
    if not values["name"]:
        values["name"] = " ".join(p for p in (cell("first_name"), cell("last_name")) if p)
    return values


def _rows(reader, headers: list[str], found: dict[str, int]):
    rows, overflowing = [], []
    for row, cells in enumerate(reader, start=2):  # a cell holding a line break is one row
        if any(c.strip() for c in cells):
            rows.append((row, _values(cells, found)))
            if any(c.strip() for c in cells[len(headers) :]):
                overflowing.append(row)
    return rows, overflowing


def read_player_list(text: str) -> PlayerList:
    """The rows of a player list (see the module); ``ListError`` when the header gives no
    name or two columns give the same field."""
    text = text.lstrip("\ufeff")
    delimiter = _delimiter(text)
    reader = _reader(text, delimiter)
    try:
        headers = next(reader, [])
        found, unused = _columns(headers)
        rows, overflowing = _rows(reader, headers, found)
    except csv.Error as exc:
        raise ListError(
            f"Line {reader.line_num} cannot be read ({exc}). Save the file as CSV and try again.",
            code="unreadable",
        ) from None
    if not _has_name(found):
        seen = ", ".join(f'"{h.strip()}"' for h in headers if h.strip()) or "nothing"
        raise ListError(
            f"The first row must name the columns, with {NAME_HELP}. It has {seen}.",
            code="missing_header",
        )
    return PlayerList(
        rows=rows,
        columns=_labels(headers, found),
        unused=unused,
        delimiter=delimiter,
        overflowing=overflowing,
    )


def name_key(name: str) -> str:
    """A name with case and spacing put aside: " ann  ABLE " is "ann able"."""
    return " ".join(name.casefold().split())


class PlayerIndex:
    """Players (any item standing for one) by ACC number and by name, to find the player a
    row names: the same ACC number (case aside), else the same name (``name_key``) when the
    row or the player has no ACC number. Two players with one name and two ACC numbers are
    two people."""

    def __init__(self):
        self._by_acc: dict[str, object] = {}
        self._by_name: dict[str, list[tuple[object, str]]] = {}

    def add(self, item, *, name: str, acc_number: str) -> None:
        acc = acc_number.strip().casefold()
        if acc:
            self._by_acc.setdefault(acc, item)
        if name_key(name):
            self._by_name.setdefault(name_key(name), []).append((item, acc))

    def find(self, *, name: str, acc_number: str):
        """The first item added that is the player named, or None."""
        acc = acc_number.strip().casefold()
        if acc in self._by_acc:
            return self._by_acc[acc]
        for item, item_acc in self._by_name.get(name_key(name), []):
            if not (acc and item_acc):
                return item
        return None
