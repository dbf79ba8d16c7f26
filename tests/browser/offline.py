"""What the offline browser tests share (issue 25): where the phone's queue stands, and
axe-core's check of the state the page shows. The ``phone`` fixture is in ``conftest.py``."""

import pytest

from tests.conftest import IN_CI, REPO

STATUS = "#sync-status"
AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"


def axe_check(page) -> None:
    """No critical or serious axe-core problem in the state the page shows (the script is
    served from our origin: the CSP allows no inline script)."""
    if not AXE.exists():
        if IN_CI:
            pytest.fail(f"axe-core is missing at {AXE}: `make test` runs `npm ci` first")
        return  # the accessibility test says why it skips; the states are still checked
    page.route(
        "**/__test__/axe.min.js",
        lambda route: route.fulfill(body=AXE.read_bytes(), content_type="text/javascript"),
    )
    page.add_script_tag(url="/__test__/axe.min.js")  # not /static/: the worker serves those
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    assert result["passes"], "axe checked nothing"
    serious = [
        f"{v['id']} at {[n['target'] for n in v['nodes'][:3]]}"
        for v in result["violations"]
        if v["impact"] in ("critical", "serious")
    ]
    assert not serious, serious


def go_offline(context) -> None:
    """The phone loses the network, and each of its open pages knows it before the test goes
    on: Chromium tells a page it is offline a moment after the emulation starts, and a report
    saved in that moment is sent (a request through the page's service worker is not held back
    by the emulation), so the test would find it stored while "offline"."""
    context.set_offline(True)
    for page in context.pages:
        page.wait_for_function("() => navigator.onLine === false")


def sync_state(page, state: str, pending: int | None = None, timeout: int = 10000):
    selector = f'{STATUS}[data-sync-state="{state}"]'
    if pending is not None:
        selector += f'[data-pending="{pending}"]'
    page.locator(selector).wait_for(state="attached", timeout=timeout)  # idle shows nothing
    return page.locator(STATUS).inner_text()
