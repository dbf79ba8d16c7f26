"""The Celery application. Settings come from Django's settings, prefixed ``CELERY_``.

Tasks are another interface to the services: they take ids, call one service and record their
state in a ``tournaments.Job`` row that pages and the API read.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("pegboard")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
