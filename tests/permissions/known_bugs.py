"""Permission defects the matrix has found and not yet fixed, by (route, method, variant, role):
the matrix states the correct answer and these cases are marked ``xfail(strict=True,
raises=WrongStatus)``, so the suite stays green while a defect is visible and turns red the day
it is fixed (remove the line then). Only a wrong status may be excused this way: a refused
request that changed something still fails.

Empty now. The first run found 15 cases on 5 routes, all refusals with the wrong status (the
check sat in a service, so the answer was a 400 or an error message instead of 403/404); each
route now fetches and checks before acting.
"""

from __future__ import annotations

KNOWN_BUGS: dict[tuple[str, str, str, str], str] = {}
