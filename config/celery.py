"""The Celery application. Settings come from Django's settings, prefixed ``CELERY_``.

Tasks are another interface to the services: they take ids, call one service and record their
state in a ``tournaments.Job`` row that pages and the API read. The worker's own log handlers
take private links and check-in codes out of what they write, as the site's do
(``config.logging``).
"""

import os

from celery import Celery
from celery.signals import after_setup_logger, after_setup_task_logger

from config.logging import redact_handlers

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("pegboard")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
after_setup_logger.connect(redact_handlers, weak=False)
after_setup_task_logger.connect(redact_handlers, weak=False)
