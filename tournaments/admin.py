from django.contrib import admin

from tournaments.models import Club, Event, EventRole, Job, Player


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "key", "status", "progress", "created_at", "finished_at"]
    list_filter = ["kind", "status"]
    readonly_fields = [f.name for f in Job._meta.fields]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    """Clubs. Recognition is decided on the club's page (listed on ``/sanctioning/``), which
    writes the club's history and has the ratings worked out again."""

    list_display = ["name", "city", "region", "recognised"]
    list_filter = ["region", "recognised"]
    search_fields = ["name"]
    readonly_fields = [
        "recognised",
        "recognition_requested_at",
        "recognition_decision",
        "recognised_at",
        "recognition_decided_at",
        "recognition_decided_by",
        "recognition_note",
    ]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    """Players' records. Their account is linked on the "Linked accounts" page
    (``/players/links/``), which keeps the history; merges go through the merge page, so
    they can be undone."""

    list_display = ["name", "acc_number", "home_club", "user", "merged_into"]
    search_fields = ["name", "acc_number"]
    autocomplete_fields = ["home_club"]
    readonly_fields = ["user", "merged_into"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    """Events. Sanctioning is decided on the Sanctioning page (``/sanctioning/``), which writes
    the event's history and keeps the MRP ledger in step."""

    list_display = ["name", "kind", "starts_on", "stage", "published", "sanctioned"]
    list_filter = ["kind", "stage", "published", "sanctioned"]
    search_fields = ["name"]
    readonly_fields = [
        "sanctioned",
        "sanction_requested_at",
        "sanction_decision",
        "sanction_decided_at",
        "sanction_decided_by",
        "sanction_note",
    ]


@admin.register(EventRole)
class EventRoleAdmin(admin.ModelAdmin):
    """Give users their role in an event: director, cross-checker or judge."""

    list_display = ["event", "user", "role"]
    list_filter = ["role"]
    autocomplete_fields = ["event", "user"]
