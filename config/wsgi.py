"""WSGI entry point, served by gunicorn in production.

Players' polls whose answer is "nothing changed" are answered before Django's request
handling (``tournaments.live_poll``); the phones' report API goes through Django with fewer
middleware (``config.link_api``); everything else is Django's as configured."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = get_wsgi_application()

from config.link_api import with_link_api  # noqa: E402  (needs Django set up)
from tournaments.live_poll import with_poll_shortcut  # noqa: E402

application = with_poll_shortcut(with_link_api(application))
