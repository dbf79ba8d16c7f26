"""Pages for players across events: leaderboards, a player's page, merging records."""

from django.urls import path

from tournaments.views import players

urlpatterns = [
    path("players/", players.leaderboard, name="leaderboard"),
    path("players/merges/", players.merges, name="player-merges"),
    path("players/merges/<num:merge_id>/undo/", players.merge_undo, name="player-merge-undo"),
    path("players/<num:player_id>/", players.player_detail, name="player-detail"),
    path("players/<num:player_id>/chart.svg", players.player_chart, name="player-chart"),
    path("players/<num:player_id>/record/", players.player_record, name="player-record"),
    *(
        path(
            f"players/changes/<num:change_id>/{action}/",
            players.record_change_decide,
            {"action": action},
            name=f"record-change-{action}",
        )
        for action in ("approve", "decline", "withdraw")
    ),
]
