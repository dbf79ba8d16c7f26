"""Every kind of page passes axe-core (no "critical" or "serious" violation) at phone and desktop
size, and the buttons, links and fields a player or director uses are big enough to tap.

axe-core comes from npm (package.json; ``make test`` runs ``npm ci``). The script is served from
the site's own origin under /static/ by ``page.route``, so the page's Content-Security-Policy
(``script-src 'self'``) stays in force while axe runs.
"""

import pytest
from django.test import Client

from tests.conftest import IN_CI, REPO
from tournaments.demo import demo_director, demo_events_build
from tournaments.models import Entry, Event, Game

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"
AXE_URL = "/static/__test__/axe.min.js"
SIZES = [(390, 844), (1280, 800)]
MIN_TAP = 44

# Controls smaller than 44x44 CSS px; links inside running text are exempt (WCAG 2.5.8).
SMALL_TARGETS = """() => {
  const small = [];
  const controls = 'a[href], button, summary, input:not([type=hidden]), select, textarea';
  for (const el of document.querySelectorAll(controls)) {
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || el.closest('[hidden], .visually-hidden')) continue;
    let box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (el.matches('input[type=checkbox], input[type=radio]') && el.closest('label')) {
      box = el.closest('label').getBoundingClientRect();  // the whole label is the target
    }
    if (el.matches('a') && style.display === 'inline') {
      const block = el.parentElement.closest('p, li, td, dd, div');
      if (block && block.textContent.trim() !== el.textContent.trim()) continue;  // in a sentence
    }
    if (box.width < 44 || box.height < 44) {
      const name = (el.textContent || el.getAttribute('aria-label') || el.name || '').trim();
      const size = `${Math.round(box.width)}x${Math.round(box.height)}`;
      small.push(`${el.tagName.toLowerCase()} "${name.slice(0, 40)}" ${size}`);
    }
  }
  return small;
}"""


@pytest.fixture
def axe_file():
    if not AXE.exists():
        if IN_CI:
            pytest.fail(f"axe-core is missing at {AXE}: `make test` runs `npm ci` first")
        pytest.skip(f"no axe-core at {AXE} (run `npm ci` in the repository root)")
    return AXE.read_bytes()


@pytest.fixture
def demo():
    director, _ = demo_director()
    demo_events_build(director=director)
    client = Client()
    client.force_login(director)
    return client.cookies["sessionid"].value


def _pages():
    main = Event.objects.filter(finalised_at__isnull=False).first()
    playing = Event.objects.exclude(pk=main.pk).filter(stage="qualifying").first() or main
    game = Game.objects.filter(event=main).order_by("number").first()
    entry = Entry.objects.filter(event=playing).first()
    public = [
        "/",
        f"/events/{main.pk}/",
        f"/events/{main.pk}/standings/",
        f"/events/{main.pk}/bracket/",
        f"/events/{playing.pk}/wall/",
        f"/r/{entry.report_token}/",
        "/count/",
    ]
    director = [
        "/events/",
        f"/events/{main.pk}/manage/",
        f"/events/{playing.pk}/manage/",
        f"/events/{main.pk}/settings/",
        f"/events/{main.pk}/games/{game.number}/",
        f"/events/{main.pk}/games/{game.number}/board/",
        f"/events/{main.pk}/history/",
        f"/events/{main.pk}/money/",
        f"/events/{main.pk}/games/{game.number}/print/",
        f"/events/{main.pk}/scorecards/",
    ]
    return public, director


def _check(page, path, axe_file, problems, size):
    page.route(
        f"**{AXE_URL}", lambda route: route.fulfill(body=axe_file, content_type="text/javascript")
    )
    response = page.goto(page.url.split("/", 3)[0] + "//" + page.url.split("/", 3)[2] + path)
    assert response.status == 200, path
    page.add_script_tag(url=AXE_URL)
    result = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    assert result["passes"], f"axe checked nothing on {path}"
    where = f"{path} at {size[0]}x{size[1]}"
    for violation in result["violations"]:
        if violation["impact"] in ("critical", "serious"):
            targets = ", ".join(str(node["target"]) for node in violation["nodes"][:5])
            problems.append(f"{where}: {violation['id']} ({violation['impact']}) at {targets}")
    for target in page.evaluate(SMALL_TARGETS):
        problems.append(f"{where}: tap target under {MIN_TAP}px: {target}")


def test_pages_pass_axe_and_have_big_tap_targets(open_page, live_server, demo, axe_file):
    public, director = _pages()
    problems = []
    for width, height in SIZES:
        visitor = open_page(f"{live_server.url}/", width=width, height=height)
        for path in public:
            _check(visitor, path, axe_file, problems, (width, height))
        signed_in = open_page("about:blank", width=width, height=height)
        signed_in.context.add_cookies(
            [{"name": "sessionid", "value": demo, "url": live_server.url}]
        )
        signed_in.goto(live_server.url + "/")
        for path in director:
            _check(signed_in, path, axe_file, problems, (width, height))
    problems = list(dict.fromkeys(problems))  # one line per problem and page
    assert not problems, "accessibility problems:\n" + "\n".join(problems)
