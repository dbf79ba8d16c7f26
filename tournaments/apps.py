from django.apps import AppConfig
from django.urls import register_converter


class TournamentsConfig(AppConfig):
    name = "tournaments"
    verbose_name = "Tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from allauth.account.signals import password_reset
        from axes.signals import user_locked_out

        from tournaments.accounts import address_proved_by_reset
        from tournaments.api.authentication import revoke_on_lockout
        from tournaments.converters import LinkConverter, NumConverter

        register_converter(NumConverter, "num")
        register_converter(LinkConverter, "link")
        user_locked_out.connect(revoke_on_lockout, dispatch_uid="pegboard-revoke-api-token")
        password_reset.connect(address_proved_by_reset, dispatch_uid="pegboard-reset-proves")

        # The tasks are registered once, here; services name them (job_enqueue) and never import
        # this module, which imports the services.
        import tournaments.tasks  # noqa: F401
