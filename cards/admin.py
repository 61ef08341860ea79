from django.contrib import admin

from cards.models import Card, CardFace, CardSet, ChecklistCard, ChecklistEntry, Printing


class CardFaceInline(admin.StackedInline):
    model = CardFace
    extra = 0


class PrintingInline(admin.TabularInline):
    model = Printing
    extra = 0
    autocomplete_fields = ["card_set"]


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ["name", "layout", "color_identity"]
    list_filter = ["layout"]
    search_fields = ["name", "search_name", "faces__search_name"]
    inlines = [CardFaceInline, PrintingInline]


@admin.register(CardSet)
class CardSetAdmin(admin.ModelAdmin):
    list_display = ["code", "name", "release_date", "set_type"]
    search_fields = ["code", "name"]


class ChecklistEntryInline(admin.TabularInline):
    model = ChecklistEntry
    extra = 0
    raw_id_fields = ["card"]


@admin.register(ChecklistCard)
class ChecklistCardAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "set_code", "collector_number", "parent_set_code"]
    list_filter = ["kind", "set_code"]
    inlines = [ChecklistEntryInline]
