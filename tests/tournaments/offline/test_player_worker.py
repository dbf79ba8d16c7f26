"""The players' pages' service worker (views/report_offline.py) and the files it keeps on the
phone: every file the player's page loads is in its list and exists; idb is the pinned npm copy."""

import json
import re

import pytest
from django.contrib.staticfiles import finders

from tests.conftest import IN_CI, REPO
from tournaments.views.report_offline import PAGE_FILES, WORKER_SCRIPTS


def _config(body: str) -> dict:
    return json.loads(re.search(r"^const CONFIG = (.*);$", body, re.MULTILINE).group(1))


def test_the_worker_is_served_from_the_players_path_with_its_files(client):
    response = client.get("/r/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    config = _config(response.content.decode())
    assert config["files"] == [f"/static/{name}" for name in PAGE_FILES]
    assert config["scripts"] == [f"/static/{name}" for name in WORKER_SCRIPTS]
    assert config["cache"].startswith("pegboard-player-")
    for name in PAGE_FILES:
        assert finders.find(name), f"{name} is kept on the phone but is not a static file"


def test_the_worker_is_refused_anything_but_get(client):
    assert client.post("/r/sw.js").status_code == 405


@pytest.mark.django_db
def test_every_script_and_style_of_the_players_page_is_kept_on_the_phone(client, event_in_play):
    from tournaments.models import Entry

    event = event_in_play(10)
    entry = Entry.objects.filter(event=event).first()
    html = client.get(f"/r/{entry.report_token}/").content.decode()
    loaded = set(re.findall(r'(?:src|href)="/static/([^"]+)"', html))
    assert loaded, "the page loads static files"
    assert loaded <= set(PAGE_FILES), loaded - set(PAGE_FILES)


def test_idb_is_the_pinned_npm_copy():
    package = json.loads((REPO / "package.json").read_text())
    assert package["dependencies"]["idb"] == "8.0.4"
    installed = REPO / "node_modules" / "idb"
    if not installed.exists():
        if IN_CI:
            pytest.fail("node_modules/idb is missing: `make test` runs `npm ci` first")
        pytest.skip("no node_modules/idb (run `npm ci` in the repository root)")
    assert json.loads((installed / "package.json").read_text())["version"] == "8.0.4"
    served = (REPO / "static" / "vendor" / "idb" / "umd.js").read_bytes()
    assert served == (installed / "build" / "umd.js").read_bytes()


@pytest.mark.django_db
def test_the_kept_offline_settings_are_what_json_script_makes_of_them(event_in_play):
    """Each page's ``offline-settings`` element is kept per event settings with the link left
    out (``offline_script``): for each link it is exactly ``json_script`` of its settings."""
    from django.urls import NoReverseMatch
    from django.utils.html import json_script

    from tournaments.models import Entry, Event
    from tournaments.selectors.events import event_scoring_settings
    from tournaments.views.report import unbound_report_form
    from tournaments.views.report_offline import offline_script, offline_settings

    event = event_in_play(10)
    form = unbound_report_form()
    for entry in Entry.objects.filter(event=event).select_related("event")[:3]:
        expected = json_script(
            offline_settings(event_scoring_settings(event=entry.event), entry.report_token, form),
            "offline-settings",
        )
        assert offline_script(entry=entry, form=form) == expected
        assert entry.report_token in expected
    # Another event's settings are another element; a token that is not a link is never
    # joined in unescaped: it has no addresses, as before (reverse() finds no route for it).
    Event.objects.filter(pk=event.pk).update(target_score=61, skunk_margin=15)
    entry = Entry.objects.filter(event=event).select_related("event").first()
    assert '"target": 61' in offline_script(entry=entry, form=form)
    entry.report_token = "a<b"
    with pytest.raises(NoReverseMatch):
        offline_script(entry=entry, form=form)
