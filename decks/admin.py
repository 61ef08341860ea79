"""Admin: decks and pools are editable; corrections and deck checks are read-only (append-only)."""

from django.contrib import admin

from decks.models import Deck, DeckCheck, DeckCheckSelection, DeckCorrection, DeckRules, SealedPool
from draftsite.admin import ReadOnlyAdminMixin


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ("registration", "event", "format", "valid", "version", "updated_at")
    list_filter = ("format", "valid")
    search_fields = ("registration__name", "event__name")
    readonly_fields = ("check_errors", "check_warnings", "summary", "checked_at")


@admin.register(SealedPool)
class SealedPoolAdmin(admin.ModelAdmin):
    list_display = ("registration", "size", "updated_at")


@admin.register(DeckRules)
class DeckRulesAdmin(admin.ModelAdmin):
    list_display = ("event", "checklist_policy")


@admin.register(DeckCorrection)
class DeckCorrectionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("deck", "judge", "at", "valid_before", "valid_after")


@admin.register(DeckCheckSelection)
class DeckCheckSelectionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("event", "method", "seed", "percent", "created_at")


@admin.register(DeckCheck)
class DeckCheckAdmin(ReadOnlyAdminMixin, admin.ModelAdmin):
    list_display = ("deck", "judge", "at", "matches")
