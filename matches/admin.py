from django.contrib import admin

from draftsite.admin import ReadOnlyAdminMixin
from matches.models import Drop, EventMatchSettings, Match, MatchLogEntry, ResultReport, Round


class MatchInline(admin.TabularInline):
    model = Match
    extra = 0
    fields = ["table", "player_a", "player_b", "status", "a_wins", "b_wins", "draws", "extension_minutes"]
    readonly_fields = fields
    can_delete = False


@admin.register(EventMatchSettings)
class EventMatchSettingsAdmin(admin.ModelAdmin):
    list_display = ["event", "mode", "swiss_rounds", "round_minutes", "playoff_size"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "pod", "number", "kind", "state", "started_at", "ends_at"]
    list_filter = ["state", "kind"]
    inlines = [MatchInline]


@admin.register(ResultReport)
class ResultReportAdmin(admin.ModelAdmin):
    list_display = ["match", "registration", "a_wins", "b_wins", "draws", "at"]


@admin.register(Drop)
class DropAdmin(admin.ModelAdmin):
    list_display = ["registration", "after_round", "reason", "by", "at"]


@admin.register(MatchLogEntry)
class MatchLogEntryAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    """Read-only: the log records who did what; changes go through the site's services."""

    list_display = ["at", "event", "round", "match", "action", "actor"]
    list_filter = ["action"]
