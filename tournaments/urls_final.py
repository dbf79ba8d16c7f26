"""Pages for the final results, the prize money and the Consolation."""

from django.urls import path

from tournaments.views import acc_results, final

EVENT = "events/<num:event_id>/"

urlpatterns = [
    path(f"{EVENT}results/", final.results, name="event-results"),
    path(f"{EVENT}results.csv", final.results_csv, name="event-results-csv"),
    path(f"{EVENT}payouts.csv", final.payouts_csv, name="event-payouts-csv"),
    path(f"{EVENT}money/", final.money, name="event-money"),
    path(f"{EVENT}money/adjust/", final.money_adjust, name="event-money-adjust"),
    path(f"{EVENT}consolation/", final.consolation, name="event-consolation"),
    path(f"{EVENT}finalise/", acc_results.finalise, name="event-finalise"),
    path(f"{EVENT}acc-results.csv", acc_results.acc_results_csv, name="event-acc-results-csv"),
    path(f"{EVENT}acc-results/", acc_results.acc_results_print, name="event-acc-results"),
]
