"""API routes for judges' calls and rulings."""

from django.urls import path

from tournaments.api import rulings

urlpatterns = [
    path(
        "events/<num:event_id>/rulings/", rulings.RulingListView.as_view(), name="api-ruling-list"
    ),
    path(
        "events/<num:event_id>/judge-calls/",
        rulings.JudgeCallListView.as_view(),
        name="api-judge-call-list",
    ),
    path(
        "judge-calls/<num:call_id>/answer/",
        rulings.JudgeCallAnswerView.as_view(),
        name="api-judge-call-answer",
    ),
    path("count/hand/", rulings.CountHandView.as_view(), name="api-count-hand"),
    path("count/play/", rulings.CountPlayView.as_view(), name="api-count-play"),
]
