from django.urls import path
from rest_framework.authtoken.views import obtain_auth_token

from tournaments.api import jobs

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("health/", jobs.HealthView.as_view(), name="api-health"),
    path("jobs/health/", jobs.HealthJobView.as_view(), name="api-job-health"),
    path("jobs/<int:job_id>/", jobs.JobDetailView.as_view(), name="api-job-detail"),
]
