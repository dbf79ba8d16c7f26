"""API routes for results: the player's report, the live board, tables, cross-checks,
standings and tie playoffs."""

from django.urls import path

from tournaments.api import results, standings

EVENT = "events/<num:event_id>/"
GAME = f"{EVENT}games/<num:number>/"
TABLE = f"{GAME}tables/<num:table_number>/"

urlpatterns = [
    path("report/<link:token>/", results.ReportView.as_view(), name="api-report"),
    path(f"{GAME}board/", results.GameBoardView.as_view(), name="api-game-board"),
    path(f"{GAME}close/", results.GameCloseView.as_view(), name="api-game-close"),
    path(f"{GAME}remind/", results.GameRemindView.as_view(), name="api-game-remind"),
    path(TABLE, results.TableDetailView.as_view(), name="api-table-detail"),
    path(f"{TABLE}lines/", results.TableLineView.as_view(), name="api-table-lines"),
    path(
        f"{TABLE}cross-check/", results.TableCrossCheckView.as_view(), name="api-table-cross-check"
    ),
    path(f"{TABLE}correct/", results.TableCorrectView.as_view(), name="api-table-correct"),
    path(f"{EVENT}cross-checks/", results.CrossCheckListView.as_view(), name="api-cross-checks"),
    path(f"{EVENT}standings/", standings.StandingsView.as_view(), name="api-standings"),
    path(f"{EVENT}tie-playoffs/", standings.TiePlayoffView.as_view(), name="api-tie-playoffs"),
]
