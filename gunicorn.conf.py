"""gunicorn reads this file from the working directory by default (the Dockerfile and compose
start it from the project root). Access log lines go through ``RedactingGunicornLogger``, so
players' private links never reach the log (see ``config.logging``).

Workers: synchronous, ``WEB_CONCURRENCY`` of them (default: one more than the cores). A
request here is CPU work in Python between short database calls, so more processes than
cores only queue behind each other, and threads share one core per process (measured with
``bench/load.py``; see the README's "Load" section)."""

import multiprocessing
import os

logger_class = "config.logging.RedactingGunicornLogger"
accesslog = "-"

worker_class = "sync"
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))
# A phone on venue Wi-Fi that stops mid-request must not hold a worker for long.
timeout = 30
graceful_timeout = 20
# The proxy in front keeps the phones' connections; gunicorn's queue holds a burst.
backlog = 2048
