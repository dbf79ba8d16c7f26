from django.urls import include, path

from tournaments.api import (
    account_links,
    auth,
    backup,
    entries,
    events,
    games,
    history,
    jobs,
    keep_apart,
    roles,
    sanctioning,
    teams,
)

EVENT = "events/<num:event_id>/"
GAME = f"{EVENT}games/<num:number>/"

urlpatterns = [
    path("", include("tournaments.api.urls_results")),
    path("", include("tournaments.api.urls_rulings")),
    path("", include("tournaments.api.urls_playoffs")),
    path("", include("tournaments.api.urls_final")),
    path("", include("tournaments.api.urls_clubs")),
    path("", include("tournaments.api.urls_weekends")),
    path("auth/token/", auth.TokenView.as_view(), name="api-token"),
    path("health/", jobs.HealthView.as_view(), name="api-health"),
    path("jobs/health/", jobs.HealthJobView.as_view(), name="api-job-health"),
    path("jobs/<num:job_id>/", jobs.JobDetailView.as_view(), name="api-job-detail"),
    path("events/", events.EventListView.as_view(), name="api-event-list"),
    path(EVENT, events.EventDetailView.as_view(), name="api-event-detail"),
    path(
        f"{EVENT}close-registration/",
        events.EventCloseRegistrationView.as_view(),
        name="api-event-close-registration",
    ),
    path(f"{EVENT}entries/", entries.EntryListView.as_view(), name="api-entry-list"),
    path(f"{EVENT}teams/", teams.TeamListView.as_view(), name="api-team-list"),
    path(f"{EVENT}teams/draw/", teams.PartnersDrawView.as_view(), name="api-partners-draw"),
    path(f"{EVENT}keep-apart/", keep_apart.KeepApartListView.as_view(), name="api-keep-apart-list"),
    path(
        f"{EVENT}keep-apart/<num:pair_id>/",
        keep_apart.KeepApartDetailView.as_view(),
        name="api-keep-apart-detail",
    ),
    path(f"{EVENT}entries/import/", entries.EntriesImportView.as_view(), name="api-entry-import"),
    path(
        "entries/<num:entry_id>/check-in/",
        entries.EntryCheckInView.as_view(),
        name="api-entry-check-in",
    ),
    path(
        "entries/<num:entry_id>/check-in/undo/",
        entries.EntryCheckInUndoView.as_view(),
        name="api-entry-check-in-undo",
    ),
    path(
        f"{EVENT}check-in-code/",
        events.EventCheckInCodeView.as_view(),
        name="api-event-check-in-code",
    ),
    path(
        "entries/<num:entry_id>/withdraw/",
        entries.EntryWithdrawView.as_view(),
        name="api-entry-withdraw",
    ),
    path(
        "entries/<num:entry_id>/rejoin/",
        entries.EntryRejoinView.as_view(),
        name="api-entry-rejoin",
    ),
    path(
        "entries/<num:entry_id>/new-link/",
        entries.EntryNewLinkView.as_view(),
        name="api-entry-new-link",
    ),
    path(
        "entries/<num:entry_id>/new-link/undo/",
        entries.EntryLinkUndoView.as_view(),
        name="api-entry-link-undo",
    ),
    path(f"{EVENT}roles/", roles.RoleListView.as_view(), name="api-role-list"),
    path(f"{EVENT}roles/<num:grant_id>/", roles.RoleDetailView.as_view(), name="api-role-detail"),
    path(f"{EVENT}history/", history.HistoryView.as_view(), name="api-event-history"),
    path(
        f"{EVENT}sanctioning/",
        sanctioning.SanctionStatusView.as_view(),
        name="api-event-sanctioning",
    ),
    *(
        path(
            f"{EVENT}sanctioning/{action}/",
            view.as_view(),
            name=f"api-event-sanctioning-{action}",
        )
        for action, view in (
            ("request", sanctioning.SanctionRequestView),
            ("cancel", sanctioning.SanctionCancelView),
            ("grant", sanctioning.SanctionGrantView),
            ("decline", sanctioning.SanctionDeclineView),
            ("revoke", sanctioning.SanctionRevokeView),
        )
    ),
    path(
        "sanctioning/requests/",
        sanctioning.SanctionRequestListView.as_view(),
        name="api-sanctioning-requests",
    ),
    path("account-links/", account_links.AccountLinkListView.as_view(), name="api-account-links"),
    *(
        path(
            f"account-links/<num:link_id>/{action}/",
            view.as_view(),
            name=f"api-account-link-{action}",
        )
        for action, view in (
            ("confirm", account_links.AccountLinkConfirmView),
            ("cancel", account_links.AccountLinkCancelView),
            ("approve", account_links.AccountLinkApproveView),
            ("decline", account_links.AccountLinkDeclineView),
            ("end", account_links.AccountLinkEndView),
        )
    ),
    path(f"{EVENT}backup/", backup.EventBackupView.as_view(), name="api-event-backup"),
    path("events/import/", backup.EventImportView.as_view(), name="api-event-import"),
    path(f"{EVENT}games/", games.GameListView.as_view(), name="api-game-list"),
    path(GAME, games.GameDetailView.as_view(), name="api-game-detail"),
    path(f"{GAME}pair/", games.GamePairView.as_view(), name="api-game-pair"),
    path(f"{GAME}publish/", games.GamePublishView.as_view(), name="api-game-publish"),
    path(f"{GAME}repair/", games.GameRepairView.as_view(), name="api-game-repair"),
]
