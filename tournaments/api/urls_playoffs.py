"""API routes for the playoffs: the bracket, building it, match reports and the no-show clock."""

from django.urls import path

from tournaments.api import playoffs

EVENT = "events/<num:event_id>/"

urlpatterns = [
    path(f"{EVENT}bracket/", playoffs.BracketView.as_view(), name="api-bracket"),
    path(f"{EVENT}playoff/build/", playoffs.PlayoffBuildView.as_view(), name="api-playoff-build"),
    path("report/<link:token>/match/", playoffs.MatchReportView.as_view(), name="api-match-report"),
    path(
        f"{EVENT}matches/<num:match_id>/clock/",
        playoffs.MatchClockView.as_view(),
        name="api-match-clock",
    ),
    path(
        f"{EVENT}matches/<num:match_id>/",
        playoffs.MatchDetailView.as_view(),
        name="api-match-detail",
    ),
    path(
        f"{EVENT}matches/<num:match_id>/games/<num:number>/correct/",
        playoffs.MatchGameCorrectView.as_view(),
        name="api-match-game-correct",
    ),
    path(
        f"{EVENT}matches/<num:match_id>/games/<num:number>/void/",
        playoffs.MatchGameVoidView.as_view(),
        name="api-match-game-void",
    ),
]
