from django.urls import include, path

from tournaments.views import (
    account_links,
    backup,
    check_in,
    director_entries,
    director_events,
    director_games,
    director_roles,
    director_teams,
    history,
    invitations,
    keep_apart,
    public,
    report,
    report_offline,
    results,
    sanctioning,
    standings,
)

urlpatterns = [
    # First: a thousand phones open and poll it within seconds of a round's start, and each
    # request tried the 70 routes of the included pages before it (5% of an opening in py-spy).
    path("r/<link:token>/", report.player_page, name="player-page"),
    # Second: every spectator reloads it every few seconds (it came after 134 routes: a fifth
    # of a reload's time went to trying them, cProfile of 300 reloads).
    path("events/<num:event_id>/standings/", standings.standings, name="standings"),
    path("", include("tournaments.urls_rulings")),
    path("", include("tournaments.urls_playoffs")),
    path("", include("tournaments.urls_final")),
    path("", include("tournaments.urls_players")),
    path("", include("tournaments.urls_clubs")),
    path("", include("tournaments.urls_weekends")),
    path("", public.home, name="home"),
    path("jobs/<num:job_id>/", public.job_detail, name="job-detail"),
    path("r/sw.js", report_offline.player_worker, name="player-worker"),
    path("me/", report.my_entries, name="my-entries"),
    path("me/links/<num:link_id>/", account_links.link_page, name="account-link"),
    path("me/links/<num:link_id>/unlink/", account_links.link_end, name="account-link-end"),
    path("players/links/", account_links.links_admin, name="account-links-admin"),
    path(
        "players/links/<num:link_id>/approve/",
        account_links.link_approve,
        name="account-link-approve",
    ),
    path(
        "players/links/<num:link_id>/decline/",
        account_links.link_decline,
        name="account-link-decline",
    ),
    path("events/", director_events.event_list, name="event-list"),
    path("events/new/", director_events.event_create, name="event-create"),
    path("events/<num:event_id>/", public.event_public, name="event-public"),
    path("events/<num:event_id>/wall/", public.event_wall, name="event-wall"),
    path("events/<num:event_id>/manage/", director_events.event_manage, name="event-manage"),
    path("events/<num:event_id>/settings/", director_events.event_settings, name="event-settings"),
    path("events/<num:event_id>/entries/add/", director_entries.entry_add, name="entry-add"),
    path("events/<num:event_id>/teams/add/", director_teams.team_add, name="team-add"),
    path("events/<num:event_id>/teams/pair-up/", director_teams.team_pair_up, name="team-pair-up"),
    path("events/<num:event_id>/teams/draw/", director_teams.team_draw, name="team-draw"),
    path("events/<num:event_id>/roles/", director_roles.role_grant, name="role-grant"),
    path(
        "events/<num:event_id>/invitations/",
        invitations.event_invitation_send,
        name="invitation-send",
    ),
    path(
        "events/<num:event_id>/invitations/<num:invitation_id>/withdraw/",
        invitations.event_invitation_withdraw,
        name="invitation-withdraw",
    ),
    path("invitations/<link:token>/", invitations.invitation, name="invitation"),
    path("events/<num:event_id>/keep-apart/", keep_apart.keep_apart_new, name="keep-apart-add"),
    path(
        "events/<num:event_id>/keep-apart/<num:pair_id>/remove/",
        keep_apart.keep_apart_drop,
        name="keep-apart-remove",
    ),
    path(
        "events/<num:event_id>/roles/<num:grant_id>/remove/",
        director_roles.role_revoke,
        name="role-revoke",
    ),
    path("events/<num:event_id>/check-in/", check_in.check_in_desk, name="event-check-in"),
    path(
        "events/<num:event_id>/check-in/everyone/",
        check_in.check_in_everyone,
        name="event-check-in-everyone",
    ),
    path("events/<num:event_id>/check-in/undo/", check_in.check_in_undo, name="check-in-undo"),
    path(
        "events/<num:event_id>/check-in/new-code/",
        check_in.check_in_new_code,
        name="check-in-new-code",
    ),
    path(
        "events/<num:event_id>/check-in/<link:code>/",
        check_in.check_in_by_code,
        name="event-check-in-code",
    ),
    path(
        "events/<num:event_id>/sanctioning/",
        sanctioning.event_sanctioning,
        name="event-sanctioning",
    ),
    path("sanctioning/", sanctioning.office, name="sanctioning-office"),
    *(
        path(
            f"sanctioning/<num:event_id>/{action}/",
            sanctioning.office_decide,
            {"action": action},
            name=f"sanctioning-{action}",
        )
        for action in ("grant", "decline", "revoke")
    ),
    path("events/<num:event_id>/history/", history.event_history, name="event-history"),
    path("events/<num:event_id>/backup.json", backup.event_backup, name="event-backup"),
    path(
        "events/<num:event_id>/entries/import/",
        director_entries.entries_import,
        name="entries-import",
    ),
    path(
        "events/<num:event_id>/close-registration/",
        director_events.event_close_registration,
        name="event-close-registration",
    ),
    path(
        "entries/<num:entry_id>/check-in/", director_entries.entry_check_in, name="entry-check-in"
    ),
    path(
        "entries/<num:entry_id>/withdraw/",
        director_entries.entry_withdraw_view,
        name="entry-withdraw",
    ),
    path("entries/<num:entry_id>/rejoin/", director_entries.entry_rejoin_view, name="entry-rejoin"),
    path(
        "entries/<num:entry_id>/new-link/",
        director_entries.entry_new_link,
        name="entry-revoke-link",
    ),
    path(
        "entries/<num:entry_id>/new-link/undo/",
        director_entries.entry_link_undo,
        name="entry-link-undo",
    ),
    path(
        "events/<num:event_id>/games/<num:number>/", director_games.game_detail, name="game-detail"
    ),
    path(
        "events/<num:event_id>/games/<num:number>/print/",
        director_games.game_print,
        name="game-print",
    ),
    path(
        "events/<num:event_id>/games/<num:number>/pair/", director_games.game_pair, name="game-pair"
    ),
    path(
        "events/<num:event_id>/games/<num:number>/publish/",
        director_games.game_publish,
        name="game-publish",
    ),
    path(
        "events/<num:event_id>/games/<num:number>/repair/",
        director_games.game_repair,
        name="game-repair",
    ),
    path("events/<num:event_id>/games/<num:number>/board/", results.board, name="game-board"),
    path("events/<num:event_id>/games/<num:number>/close/", results.close, name="game-close"),
    path("events/<num:event_id>/games/<num:number>/remind/", results.remind, name="game-remind"),
    path(
        "events/<num:event_id>/games/<num:number>/tables/<num:table_number>/",
        results.table_detail,
        name="table-detail",
    ),
    path(
        "events/<num:event_id>/games/<num:number>/tables/<num:table_number>/paper/",
        results.paper_line,
        name="table-paper-line",
    ),
    path(
        "events/<num:event_id>/games/<num:number>/tables/<num:table_number>/cross-check/",
        results.cross_check,
        name="table-cross-check",
    ),
    path(
        "events/<num:event_id>/games/<num:number>/tables/<num:table_number>/correct/",
        results.correct,
        name="table-correct",
    ),
    path("events/<num:event_id>/cross-checks/", results.cross_check_queue, name="cross-checks"),
    path("events/<num:event_id>/tie-playoff/", standings.tie_playoff, name="tie-playoff"),
    path("events/<num:event_id>/scorecards/", standings.scorecards, name="scorecards"),
]
