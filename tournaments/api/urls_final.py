"""API routes for the final results and the Consolation."""

from django.urls import path

from tournaments.api import final

EVENT = "events/<int:event_id>/"

urlpatterns = [
    path(f"{EVENT}results/", final.FinalResultsView.as_view(), name="api-event-results"),
    path(f"{EVENT}consolation/", final.ConsolationView.as_view(), name="api-event-consolation"),
]
