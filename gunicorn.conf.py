"""gunicorn reads this file from the working directory by default (the Dockerfile and compose
start it from the project root). Access and error log lines go through
``RedactingGunicornLogger``, so players' private links and events' check-in codes never reach
the log (see ``config.logging``).

Workers: synchronous, ``WEB_CONCURRENCY`` of them (default: one more than the cores). A
request here is a few milliseconds of Python between short database calls: one more process
than cores covers the waits, more only queue behind each other, and threads share one core
per process. Measured with ``bench/load.py`` on 2 cores (see the README's "Load" section):
3 sync workers held 120-160 reports a second, 2 the same with a longer tail, 5 held 120,
gthread (2 x 4 threads) 90."""

import multiprocessing
import os

from config.gunicorn_close import install as close_promptly

# A worker takes the next request as soon as a response is sent, without waiting for the
# client to close its side (config/gunicorn_close.py: a phone on venue Wi-Fi held it up to 2 s).
close_promptly()

logger_class = "config.logging.RedactingGunicornLogger"
accesslog = "-"

worker_class = "sync"
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))
# A phone on venue Wi-Fi that stops mid-request must not hold a worker for long.
timeout = 30
graceful_timeout = 20
# The proxy in front keeps the phones' connections; gunicorn's queue holds a burst.
backlog = 2048


def post_worker_init(worker):
    """Each worker imports the URLs, compiles the templates and the hottest queries, opens
    its database connection, connects the shared caches and makes what a first page makes
    once before its first request (``config.warm``): done at the first requests instead, it
    made them, and all queued behind them, wait 0.3-0.9 s. Then what it made is kept out of
    the garbage collector's full walks (``collector_freeze``)."""
    from django.apps import apps
    from django.conf import settings

    # Only Pegboard's own application (config.wsgi), not a test's or a bench's bare one.
    if apps.ready and settings.SETTINGS_MODULE == "config.settings":
        from config.warm import collector_freeze, worker_warm

        worker_warm()
        collector_freeze()
