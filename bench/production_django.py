"""What every bench on the production stack does first: Django with production settings
(DEBUG off) on the bench's PostgreSQL (``PEGBOARD_BENCH_DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/pegboard_bench``), no broker in this process (its set-up
runs jobs at once), the project importable. Import it before anything of Django's:
``import production_django  # noqa: F401``."""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["DEBUG"] = "false"
os.environ.setdefault("SECRET_KEY", "bench-only-" + "x" * 50)
os.environ["DATABASE_URL"] = os.environ.get(
    "PEGBOARD_BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pegboard_bench"
)
os.environ.pop("CELERY_BROKER_URL", None)  # the set-up here runs its jobs in this process

import django  # noqa: E402

django.setup()
