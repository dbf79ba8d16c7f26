from django.urls import path

from tournaments.views import public

urlpatterns = [
    path("", public.home, name="home"),
    path("jobs/<int:job_id>/", public.job_detail, name="job-detail"),
]
