"""Pegboard's project configuration: settings, URLs, the Celery app, WSGI and ASGI entry points."""

from config.celery import app as celery_app

__all__ = ["celery_app"]
