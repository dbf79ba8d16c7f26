"""API: background jobs and the service health check."""

from django.db import connection
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers import JobSerializer, no_input
from tournaments.selectors.access import job_get_for_user
from tournaments.selectors.jobs import queue_status
from tournaments.services.jobs import job_enqueue


class HealthView(APIView):
    """Is the site up, can it reach its database, and can it send jobs? Anyone may ask.

    ``status`` is "degraded" while the broker is down: the site still saves every report, and the
    jobs waiting (``jobs_waiting``) are sent when the broker is back. ``broker`` is "in-process"
    when no broker is configured (tasks run in the web process).
    """

    permission_classes = [permissions.AllowAny]
    throttle_classes = []

    @extend_schema(
        responses=inline_serializer(
            "Health",
            {
                "status": serializers.ChoiceField(choices=["ok", "degraded"]),
                "database": serializers.CharField(),
                "broker": serializers.ChoiceField(choices=["ok", "down", "in-process"]),
                "jobs_waiting": serializers.IntegerField(),
                "oldest_waiting_seconds": serializers.IntegerField(),
                "jobs_running_without_heartbeat": serializers.IntegerField(),
            },
        )
    )
    def get(self, request):
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        queue = queue_status()
        degraded = queue["broker"] == "down" or queue["jobs_running_without_heartbeat"]
        return Response(
            {"status": "degraded" if degraded else "ok", "database": connection.vendor, **queue}
        )


class HealthJobView(APIView):
    """Staff: run the health task through the queue, to prove a worker is taking jobs."""

    permission_classes = [permissions.IsAdminUser]

    @extend_schema(request=None, responses={202: JobSerializer})
    def post(self, request):
        no_input(request)
        job = job_enqueue(
            kind="health", task="tournaments.tasks.health_check", created_by=request.user
        )
        return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class JobDetailView(APIView):
    """A job's state: who started it (or staff) may read it."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=JobSerializer)
    def get(self, request, job_id: int):
        return Response(JobSerializer(job_get_for_user(job_id=job_id, user=request.user)).data)
