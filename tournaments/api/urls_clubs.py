"""API routes for clubs (their recognition and history), seasons, awards, the Grass Roots
leaderboard and skill ratings."""

from django.urls import path

from tournaments.api import club_recognition as recognition
from tournaments.api import clubs, clubs_admin

CLUB = "clubs/<num:club_id>/"

urlpatterns = [
    path("clubs/", clubs.ClubListView.as_view(), name="api-club-list"),
    path("clubs/admin/", clubs_admin.ClubAdminListView.as_view(), name="api-club-admin"),
    path(f"{CLUB}merge/", clubs_admin.ClubMergeView.as_view(), name="api-club-merge"),
    path(f"{CLUB}remove/", clubs_admin.ClubRemoveView.as_view(), name="api-club-remove"),
    path(CLUB, clubs.ClubDetailView.as_view(), name="api-club-detail"),
    path(
        f"{CLUB}recognition/",
        recognition.RecognitionStatusView.as_view(),
        name="api-club-recognition",
    ),
    *(
        path(f"{CLUB}recognition/{action}/", view.as_view(), name=f"api-club-recognition-{action}")
        for action, view in (
            ("request", recognition.RecognitionRequestView),
            ("cancel", recognition.RecognitionCancelView),
            ("grant", recognition.RecognitionGrantView),
            ("decline", recognition.RecognitionDeclineView),
            ("revoke", recognition.RecognitionRevokeView),
        )
    ),
    path(
        "clubs/recognition/requests/",
        recognition.RecognitionRequestListView.as_view(),
        name="api-club-recognition-requests",
    ),
    path(f"{CLUB}history/", recognition.ClubHistoryView.as_view(), name="api-club-history"),
    path(f"{CLUB}nights/", clubs.ClubNightView.as_view(), name="api-club-nights"),
    path(f"{CLUB}standings/", clubs.ClubStandingsView.as_view(), name="api-club-standings"),
    path(f"{CLUB}awards/", clubs.ClubAwardView.as_view(), name="api-club-awards"),
    path("grass-roots/<num:season>/", clubs.GrassRootsView.as_view(), name="api-grass-roots"),
    path("ratings/", clubs.RatingLeaderboardView.as_view(), name="api-ratings"),
    path("ratings/predict/", clubs.PredictView.as_view(), name="api-rating-predict"),
    path(
        "players/<num:player_id>/rating/",
        clubs.PlayerRatingView.as_view(),
        name="api-player-rating",
    ),
]
