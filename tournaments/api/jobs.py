"""API: background jobs and the service health check."""

from django.db import connection
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import tasks
from tournaments.api.serializers import JobSerializer
from tournaments.selectors.jobs import job_get_for_user
from tournaments.services.jobs import job_enqueue


class HealthView(APIView):
    """Is the site up and can it reach its database? Anonymous visitors may ask."""

    permission_classes = [permissions.AllowAny]

    @extend_schema(
        responses=inline_serializer(
            "Health", {"status": serializers.CharField(), "database": serializers.CharField()}
        )
    )
    def get(self, request):
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return Response({"status": "ok", "database": connection.vendor})


class HealthJobView(APIView):
    """Staff: run the health task through the queue, to prove a worker is taking jobs."""

    permission_classes = [permissions.IsAdminUser]

    @extend_schema(request=None, responses={202: JobSerializer})
    def post(self, request):
        job = job_enqueue(kind="health", task=tasks.health_check, created_by=request.user)
        return Response(JobSerializer(job).data, status=status.HTTP_202_ACCEPTED)


class JobDetailView(APIView):
    """A job's state: who started it (or staff) may read it."""

    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(responses=JobSerializer)
    def get(self, request, job_id: int):
        return Response(JobSerializer(job_get_for_user(job_id=job_id, user=request.user)).data)
