from django.apps import AppConfig
from django.urls import register_converter


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from tournaments.converters import LinkConverter, NumConverter

        register_converter(NumConverter, "num")
        register_converter(LinkConverter, "link")
