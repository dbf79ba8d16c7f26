"""API routes for the final results, the Consolation, the MRP ledger and players."""

from django.urls import path

from tournaments.api import final, players, record_changes

EVENT = "events/<num:event_id>/"

urlpatterns = [
    path(f"{EVENT}results/", final.FinalResultsView.as_view(), name="api-event-results"),
    path(f"{EVENT}consolation/", final.ConsolationView.as_view(), name="api-event-consolation"),
    path(f"{EVENT}finalise/", final.FinaliseView.as_view(), name="api-event-finalise"),
    path(f"{EVENT}acc-results/", final.AccResultsView.as_view(), name="api-event-acc-results"),
    path("players/<num:player_id>/", players.PlayerDetailView.as_view(), name="api-player"),
    path(
        "players/changes/",
        record_changes.RecordChangeListView.as_view(),
        name="api-record-changes",
    ),
    *(
        path(
            f"players/changes/<num:change_id>/{action}/",
            view.as_view(),
            name=f"api-record-change-{action}",
        )
        for action, view in (
            ("approve", record_changes.RecordChangeApproveView),
            ("decline", record_changes.RecordChangeDeclineView),
            ("withdraw", record_changes.RecordChangeWithdrawView),
        )
    ),
    path("players/merges/", players.MergeListView.as_view(), name="api-player-merges"),
    path(
        "players/merges/<num:merge_id>/undo/",
        players.MergeUndoView.as_view(),
        name="api-player-merge-undo",
    ),
    path("leaderboards/mrp/", players.MrpLeaderboardView.as_view(), name="api-leaderboard-mrp"),
]
