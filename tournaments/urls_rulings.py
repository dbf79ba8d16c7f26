"""Pages for judges: calls to a table, rulings, the count checker."""

from django.urls import path

from tournaments.views import rulings, rulings_count

TABLE = "events/<num:event_id>/games/<num:number>/tables/<num:table_number>/"

urlpatterns = [
    path("judges/", rulings.judge_events, name="judge-events"),
    path("events/<num:event_id>/judges/", rulings.judge_page, name="judge-page"),
    path(
        "judge-calls/<num:call_id>/answer/",
        rulings.judge_call_answer_view,
        name="judge-call-answer",
    ),
    path(f"{TABLE}ruling/", rulings.ruling_form, name="ruling-form"),
    path(
        "events/<num:event_id>/playoffs/matches/<num:match_id>/ruling/",
        rulings.match_ruling_form,
        name="match-ruling-form",
    ),
    path("events/<num:event_id>/rulings/", rulings.ruling_list, name="ruling-list"),
    path("r/<link:token>/judge/", rulings.player_call_judge, name="player-call-judge"),
    path("count/", rulings_count.count_checker, name="count-checker"),
]
