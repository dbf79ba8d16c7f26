"""WSGI entry point, served by gunicorn in production.

Players' polls whose answer is "nothing changed" are answered before Django's request
handling (``tournaments.live_poll``); everything else is Django's."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

from tournaments.live_poll import with_poll_shortcut  # noqa: E402  (needs Django set up)

application = with_poll_shortcut(application)
