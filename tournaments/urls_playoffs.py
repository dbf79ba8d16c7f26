"""Playoff pages: the bracket, building it, a match for its directors, the player's report."""

from django.urls import path

from tournaments.views import playoffs

MATCH = "events/<num:event_id>/matches/<num:match_id>/"

urlpatterns = [
    path("events/<num:event_id>/bracket/", playoffs.bracket, name="playoff-bracket"),
    path("events/<num:event_id>/playoff/build/", playoffs.build, name="playoff-build"),
    path(MATCH, playoffs.match_detail, name="match-detail"),
    path(f"{MATCH}clock/", playoffs.match_clock, name="match-clock"),
    path(f"{MATCH}clock/stop/", playoffs.match_clock_stop_view, name="match-clock-stop"),
    path(f"{MATCH}games/<num:number>/void/", playoffs.match_game_void_view, name="match-game-void"),
    path(
        f"{MATCH}games/<num:number>/correct/",
        playoffs.match_game_correction,
        name="match-game-correct",
    ),
    path("r/<link:token>/match/", playoffs.player_match_report, name="player-match-report"),
]
