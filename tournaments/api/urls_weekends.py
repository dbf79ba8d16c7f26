"""API addresses of weekends (tournaments) and their registration requests."""

from django.urls import path

from tournaments.api import registrations, weekends

WEEKEND = "weekends/<num:weekend_id>/"

urlpatterns = [
    path("weekends/", weekends.WeekendListView.as_view(), name="api-weekend-list"),
    path(WEEKEND, weekends.WeekendDetailView.as_view(), name="api-weekend-detail"),
    path(f"{WEEKEND}events/", weekends.WeekendEventsView.as_view(), name="api-weekend-events"),
    path(
        f"{WEEKEND}events/<num:event_id>/",
        weekends.WeekendEventDetailView.as_view(),
        name="api-weekend-event",
    ),
    path(
        f"{WEEKEND}registration/",
        weekends.WeekendRegistrationView.as_view(),
        name="api-weekend-registration",
    ),
    path(
        f"{WEEKEND}registrations/",
        registrations.WeekendRegistrationsView.as_view(),
        name="api-weekend-registrations",
    ),
    path(
        f"{WEEKEND}events/<num:event_id>/capacity/",
        registrations.CapacityView.as_view(),
        name="api-weekend-capacity",
    ),
    *[
        path(
            f"registrations/<num:request_id>/{step}/",
            registrations.RegistrationDecisionView.as_view(step=step),
            name=f"api-registration-{step}",
        )
        for step in ("approve", "decline", "change")
    ],
    path(
        "registrations/private/<link:token>/",
        registrations.PrivateRequestView.as_view(),
        name="api-registration-private",
    ),
    path(
        "registrations/private/<link:token>/withdraw/",
        registrations.PrivateStepView.as_view(step="withdraw"),
        name="api-registration-withdraw",
    ),
    *[
        path(
            f"registrations/private/<link:token>/{step}/<num:choice_id>/",
            registrations.PrivateStepView.as_view(step=step),
            name=f"api-registration-{step}",
        )
        for step in ("take", "give-up")
    ],
]
