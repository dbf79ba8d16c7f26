"""CSV downloads that a spreadsheet opens safely.

- formula cell: text a spreadsheet would run as a formula: it starts (after any spaces) with
  ``= + - @``, a tab or a carriage return. A player named ``=HYPERLINK(...)`` must reach the
  director's spreadsheet as text, so such a cell gets a leading apostrophe (the OWASP advice),
  which spreadsheets show as nothing. Numbers are written as numbers, negative ones included.

(The ``defusedcsv`` package was tried: it leaves tab and carriage return alone, so the few
lines here do the job whole.)
"""

from __future__ import annotations

import csv
from typing import Any

from django.http import HttpResponse

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """``value`` as a cell no spreadsheet will run (see the module)."""
    if value is None or isinstance(value, int | float):
        return "" if value is None else value
    text = str(value)
    if text.lstrip(" \u00a0").startswith(TRIGGERS) or text.startswith(TRIGGERS):
        return "'" + text
    return text


class SafeWriter:
    """``csv.writer`` whose every text cell goes through ``csv_cell``."""

    def __init__(self, stream):
        self._writer = csv.writer(stream)

    def writerow(self, row) -> None:
        self._writer.writerow([csv_cell(value) for value in row])


def csv_download(filename: str) -> tuple[HttpResponse, SafeWriter]:
    """A response that downloads as ``filename``, and the writer for its rows."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response, SafeWriter(response)
