"""Settings of the minimal project: the product's database settings (persistent connections,
health checks, prepared statements), DRF for the JSON body, no other middleware or app."""

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
DATABASES["default"].setdefault("OPTIONS", {})["prepare_threshold"] = 2**31 - 1
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": [],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "UNAUTHENTICATED_USER": None,
}
