"""The phone's "what will this put on my card" (static/js/report-rules.js) is the engine's rule:
for every margin 0..target+1 of a win and a loss, under several events' settings, Chromium's
answer (line and words, or the refusal) equals scoring.games'. And the page carries the event's
own settings (selectors/events.event_scoring_settings) for it."""

import json
from dataclasses import asdict

import pytest

from scoring.games import (
    ACC_SETTINGS,
    CardLineError,
    ScoringSettings,
    card_line_for,
    describe_card_line,
    sixty_one_point_settings,
)
from tests.conftest import REPO
from tournaments.models import Entry, Event
from tournaments.selectors.events import event_scoring_settings

pytestmark = [pytest.mark.browser]

SETTINGS = {
    "acc": ACC_SETTINGS,
    "sixty-one": sixty_one_point_settings(),
    "club": ScoringSettings(
        skunk_margin=25, double_skunk_margin=50, win_points=1, skunk_points=2, double_skunk_points=4
    ),
}


def _engine(won: bool, margin: int, settings: ScoringSettings) -> dict:
    try:
        words = describe_card_line(won=won, spread=margin, settings=settings)
    except CardLineError as exc:
        return {"ok": False, "message": exc.message}
    line = card_line_for(won, margin, settings)
    return {"ok": True, "line": asdict(line), "words": words}


@pytest.mark.parametrize("name", SETTINGS)
def test_the_phone_previews_every_margin_as_the_engine(browser, name):
    settings = SETTINGS[name]
    page = browser.new_page()
    try:
        page.add_script_tag(path=str(REPO / "static/js/report-rules.js"))
        margins = list(range(0, max(121, settings.target) + 2))
        phone = page.evaluate(
            """([margins, settings]) => margins.flatMap((margin) => [true, false].map(
                (won) => PegboardRules.cardLinePreview(won, margin, settings)))""",
            [margins, asdict(settings)],
        )
    finally:
        page.close()
    engine = [_engine(won, margin, settings) for margin in margins for won in (True, False)]
    assert len(phone) == len(engine) == 2 * len(margins)
    mismatches = [(e, p) for e, p in zip(engine, phone, strict=True) if e != p]
    assert not mismatches, mismatches[:3]
    # Both kinds of answer were compared: lines and refusals (0, and past the target).
    assert {answer["ok"] for answer in engine} == {True, False}


@pytest.mark.django_db
def test_the_page_carries_the_events_scoring_settings(client, event_in_play):
    event = event_in_play(10)
    Event.objects.filter(pk=event.pk).update(skunk_margin=25, skunk_points=4, double_skunk_points=5)
    event.refresh_from_db()
    entry = Entry.objects.filter(event=event).first()
    response = client.get(f"/r/{entry.report_token}/")
    carried = json.loads(_script(response.content.decode()))
    assert carried["settings"] == asdict(event_scoring_settings(event=event))
    assert carried["settings"]["skunk_margin"] == 25
    assert carried["token"] == entry.report_token
    assert carried["report_url"] == f"/api/v1/report/{entry.report_token}/"


def _script(html: str) -> str:
    start = html.index('<script id="offline-settings" type="application/json">')
    body = html[start:].split(">", 1)[1]
    return body.split("</script>", 1)[0]
