"""Pages for players across events: leaderboards, a player's page, merging records."""

from django.urls import path

from tournaments.views import players

urlpatterns = [
    path("players/", players.leaderboard, name="leaderboard"),
    path("players/merges/", players.merges, name="player-merges"),
    path("players/merges/<num:merge_id>/undo/", players.merge_undo, name="player-merge-undo"),
    path("players/<num:player_id>/", players.player_detail, name="player-detail"),
    path("players/<num:player_id>/chart.svg", players.player_chart, name="player-chart"),
    path(
        "players/<num:player_id>/acc-number/",
        players.player_acc_number,
        name="player-acc-number",
    ),
]
