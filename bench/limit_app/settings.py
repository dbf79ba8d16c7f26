"""Settings of the minimal project: the product's database settings (its engine, whose check
of a kept connection sends no ``SELECT 1`` while the server said nothing; persistent
connections; prepared statements only where asked), DRF for the JSON body, no other middleware
or app. Until the ninth session it had Django's own engine, whose check sent ``SELECT 1`` before
each request's first query: five round trips a report, not the four the product sends."""

import os

import dj_database_url

DEBUG = False
SECRET_KEY = os.environ["SECRET_KEY"]
ALLOWED_HOSTS = ["127.0.0.1"]
ROOT_URLCONF = "bench.limit_app.urls"
WSGI_APPLICATION = "bench.limit_app.wsgi.application"
INSTALLED_APPS = ["rest_framework"]
MIDDLEWARE = []
USE_TZ = True
DATABASES = {
    "default": dj_database_url.parse(
        os.environ["DATABASE_URL"], conn_max_age=60, conn_health_checks=True
    )
}
DATABASES["default"]["ENGINE"] = "config.postgresql"
DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 2**31 - 1
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "UNAUTHENTICATED_USER": None,
}
