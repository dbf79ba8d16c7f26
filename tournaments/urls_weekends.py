"""Pages of weekends (tournaments), their registration, and a player's request."""

from django.urls import path

from tournaments.views import registrations, weekends

WEEKEND = "weekends/<num:weekend_id>/"
REQUEST = f"{WEEKEND}requests/<num:request_id>/"

urlpatterns = [
    path("weekends/", weekends.weekend_list, name="weekend-list"),
    path("weekends/new/", weekends.weekend_new, name="weekend-new"),
    path(WEEKEND, weekends.weekend_detail, name="weekend-detail"),
    path(f"{WEEKEND}manage/", weekends.weekend_manage, name="weekend-manage"),
    path(f"{WEEKEND}events/", weekends.weekend_event_new, name="weekend-event-new"),
    path(
        f"{WEEKEND}events/<num:event_id>/remove/",
        weekends.weekend_event_drop,
        name="weekend-event-remove",
    ),
    path(
        f"{WEEKEND}events/<num:event_id>/capacity/",
        registrations.weekend_capacity,
        name="weekend-capacity",
    ),
    path(
        f"{WEEKEND}registration/open/",
        weekends.weekend_registration_switch,
        {"to": "open"},
        name="weekend-registration-open",
    ),
    path(
        f"{WEEKEND}registration/close/",
        weekends.weekend_registration_switch,
        {"to": "close"},
        name="weekend-registration-close",
    ),
    path(f"{WEEKEND}register/", registrations.weekend_register, name="weekend-register"),
    path(
        f"{REQUEST}approve/",
        registrations.registration_decide,
        {"step": "approve"},
        name="registration-approve",
    ),
    path(
        f"{REQUEST}decline/",
        registrations.registration_decide,
        {"step": "decline"},
        name="registration-decline",
    ),
    path(
        f"{REQUEST}change/",
        registrations.registration_decide,
        {"step": "change"},
        name="registration-change-ask",
    ),
    path(
        "registration/<link:token>/", registrations.registration_status, name="registration-status"
    ),
    path(
        "registration/<link:token>/change/",
        registrations.registration_change,
        name="registration-change",
    ),
    path(
        "registration/<link:token>/withdraw/",
        registrations.registration_player_step,
        {"step": "withdraw"},
        name="registration-withdraw",
    ),
    path(
        "registration/<link:token>/take/<num:choice_id>/",
        registrations.registration_player_step,
        {"step": "take"},
        name="registration-take",
    ),
    path(
        "registration/<link:token>/give-up/<num:choice_id>/",
        registrations.registration_player_step,
        {"step": "give_up"},
        name="registration-give-up",
    ),
]
