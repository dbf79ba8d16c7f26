"""Pages for clubs (their recognition and history), seasons, the national Grass Roots
leaderboard and skill ratings."""

from django.urls import path

from tournaments.views import club_recognition, clubs, clubs_admin, ratings

CLUB = "clubs/<num:club_id>/"

urlpatterns = [
    path("clubs/", clubs.club_list, name="club-list"),
    path("clubs/new/", clubs.club_new, name="club-new"),
    path("clubs/admin/", clubs_admin.clubs_admin, name="clubs-admin"),
    path(f"{CLUB}remove/", clubs_admin.club_remove_view, name="club-remove"),
    path(CLUB, clubs.club_detail, name="club-detail"),
    path(f"{CLUB}settings/", clubs.club_settings, name="club-settings"),
    path(f"{CLUB}history/", club_recognition.club_history, name="club-history"),
    path(f"{CLUB}recognition/", club_recognition.club_recognition, name="club-recognition"),
    *(
        path(
            f"{CLUB}recognition/{action}/",
            club_recognition.club_recognition_decide,
            {"action": action},
            name=f"club-recognition-{action}",
        )
        for action in ("grant", "decline", "revoke")
    ),
    path(f"{CLUB}nights/", clubs.club_night_new, name="club-night-new"),
    path(f"{CLUB}directors/", clubs.club_director_new, name="club-director-new"),
    path(
        f"{CLUB}directors/<num:user_id>/remove/",
        clubs.club_director_remove_view,
        name="club-director-remove",
    ),
    path(f"{CLUB}invitations/", clubs.club_invitation_send, name="club-invitation-send"),
    path(
        f"{CLUB}invitations/<num:invitation_id>/withdraw/",
        clubs.club_invitation_withdraw,
        name="club-invitation-withdraw",
    ),
    path(f"{CLUB}awards/", clubs.club_award_new, name="club-award-new"),
    path(f"{CLUB}seasons/<num:season>/", clubs.club_season, name="club-season"),
    path(f"{CLUB}ratings/", ratings.leaderboard, name="club-ratings"),
    path("grass-roots/<num:season>/", clubs.grass_roots_leaderboard, name="grass-roots"),
    path("ratings/", ratings.leaderboard, name="ratings"),
    path("ratings/chance/", ratings.chance, name="rating-chance"),
    path("players/<num:player_id>/rating.svg", ratings.rating_chart, name="player-rating-chart"),
]
