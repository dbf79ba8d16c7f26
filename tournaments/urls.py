from django.urls import path

from tournaments.views import director_events, director_games, public

urlpatterns = [
    path("", public.home, name="home"),
    path("jobs/<int:job_id>/", public.job_detail, name="job-detail"),
    path("events/", director_events.event_list, name="event-list"),
    path("events/new/", director_events.event_create, name="event-create"),
    path("events/<int:event_id>/", public.event_public, name="event-public"),
    path("events/<int:event_id>/manage/", director_events.event_manage, name="event-manage"),
    path("events/<int:event_id>/settings/", director_events.event_settings, name="event-settings"),
    path("events/<int:event_id>/entries/add/", director_events.entry_add, name="entry-add"),
    path(
        "events/<int:event_id>/entries/import/",
        director_events.entries_import,
        name="entries-import",
    ),
    path(
        "events/<int:event_id>/close-registration/",
        director_events.event_close_registration,
        name="event-close-registration",
    ),
    path("entries/<int:entry_id>/check-in/", director_events.entry_check_in, name="entry-check-in"),
    path("entries/<int:entry_id>/withdraw/", director_events.entry_withdraw, name="entry-withdraw"),
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
]
