from django.contrib import admin

from tournaments.models import Club, Event, EventRole, Job, Player


@admin.register(Job)
class JobAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "key", "status", "progress", "created_at", "finished_at"]
    list_filter = ["kind", "status"]
    readonly_fields = [f.name for f in Job._meta.fields]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "region"]
    list_filter = ["region"]
    search_fields = ["name"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    """Staff link a player to an account here, so the player can sign in instead of the link."""

    list_display = ["name", "acc_number", "home_club", "user", "merged_into"]
    search_fields = ["name", "acc_number"]
    autocomplete_fields = ["user", "home_club"]
    readonly_fields = ["merged_into"]  # merges go through the merge page, so they can be undone


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "starts_on", "stage", "published"]
    list_filter = ["kind", "stage", "published"]
    search_fields = ["name"]


@admin.register(EventRole)
class EventRoleAdmin(admin.ModelAdmin):
    """Give users their role in an event: director, cross-checker or judge."""

    list_display = ["event", "user", "role"]
    list_filter = ["role"]
    autocomplete_fields = ["event", "user"]
