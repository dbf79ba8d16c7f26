from django.urls import include, path

from tournaments.views import (
    director_entries,
    director_events,
    director_games,
    director_roles,
    history,
    player,
    public,
    results,
    standings,
)

urlpatterns = [
    path("", include("tournaments.urls_judges")),
    path("", include("tournaments.urls_playoffs")),
    path("", include("tournaments.urls_final")),
    path("", include("tournaments.urls_players")),
    path("", include("tournaments.urls_clubs")),
    path("", public.home, name="home"),
    path("jobs/<int:job_id>/", public.job_detail, name="job-detail"),
    path("r/<str:token>/", player.player_page, name="player-page"),
    path("me/", player.my_entries, name="my-entries"),
    path("events/", director_events.event_list, name="event-list"),
    path("events/new/", director_events.event_create, name="event-create"),
    path("events/<int:event_id>/", public.event_public, name="event-public"),
    path("events/<int:event_id>/manage/", director_events.event_manage, name="event-manage"),
    path("events/<int:event_id>/settings/", director_events.event_settings, name="event-settings"),
    path("events/<int:event_id>/entries/add/", director_entries.entry_add, name="entry-add"),
    path("events/<int:event_id>/roles/", director_roles.role_grant, name="role-grant"),
    path(
        "events/<int:event_id>/roles/<int:grant_id>/remove/",
        director_roles.role_revoke,
        name="role-revoke",
    ),
    path("events/<int:event_id>/history/", history.event_history, name="event-history"),
    path(
        "events/<int:event_id>/entries/import/",
        director_entries.entries_import,
        name="entries-import",
    ),
    path(
        "events/<int:event_id>/close-registration/",
        director_events.event_close_registration,
        name="event-close-registration",
    ),
    path(
        "entries/<int:entry_id>/check-in/", director_entries.entry_check_in, name="entry-check-in"
    ),
    path(
        "entries/<int:entry_id>/withdraw/",
        director_entries.entry_withdraw_view,
        name="entry-withdraw",
    ),
    path("entries/<int:entry_id>/rejoin/", director_entries.entry_rejoin_view, name="entry-rejoin"),
    path(
        "entries/<int:entry_id>/new-link/",
        director_entries.entry_new_link,
        name="entry-revoke-link",
    ),
    path(
        "entries/<int:entry_id>/new-link/undo/",
        director_entries.entry_link_undo,
        name="entry-link-undo",
    ),
    path(
        "events/<int:event_id>/games/<int:number>/", director_games.game_detail, name="game-detail"
    ),
    path(
        "events/<int:event_id>/games/<int:number>/print/",
        director_games.game_print,
        name="game-print",
    ),
    path(
        "events/<int:event_id>/games/<int:number>/pair/", director_games.game_pair, name="game-pair"
    ),
    path(
        "events/<int:event_id>/games/<int:number>/publish/",
        director_games.game_publish,
        name="game-publish",
    ),
    path(
        "events/<int:event_id>/games/<int:number>/repair/",
        director_games.game_repair,
        name="game-repair",
    ),
    path("events/<int:event_id>/games/<int:number>/board/", results.board, name="game-board"),
    path("events/<int:event_id>/games/<int:number>/close/", results.close, name="game-close"),
    path("events/<int:event_id>/games/<int:number>/remind/", results.remind, name="game-remind"),
    path(
        "events/<int:event_id>/games/<int:number>/tables/<int:table_number>/",
        results.table_detail,
        name="table-detail",
    ),
    path(
        "events/<int:event_id>/games/<int:number>/tables/<int:table_number>/paper/",
        results.paper_line,
        name="table-paper-line",
    ),
    path(
        "events/<int:event_id>/games/<int:number>/tables/<int:table_number>/cross-check/",
        results.cross_check,
        name="table-cross-check",
    ),
    path(
        "events/<int:event_id>/games/<int:number>/tables/<int:table_number>/correct/",
        results.correct,
        name="table-correct",
    ),
    path("events/<int:event_id>/cross-checks/", results.cross_check_queue, name="cross-checks"),
    path("events/<int:event_id>/standings/", standings.standings, name="standings"),
    path("events/<int:event_id>/tie-playoff/", standings.tie_playoff, name="tie-playoff"),
    path("events/<int:event_id>/scorecards/", standings.scorecards, name="scorecards"),
]
