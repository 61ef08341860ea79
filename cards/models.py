"""The card catalogue: sets, oracle cards with their ordered faces, printings, and the
official checklist and substitute cards that may stand in for double-faced cards (R9-R11).
"""

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy, pgettext_lazy


class Layout(models.TextChoices):
    NORMAL = "normal", gettext_lazy("Normal")
    TRANSFORM = "transform", gettext_lazy("Transforming double-faced")
    MODAL_DFC = "modal_dfc", gettext_lazy("Modal double-faced")
    MELD = "meld", gettext_lazy("Meld")
    FLIP = "flip", pgettext_lazy("card layout", "Flip")
    SPLIT = "split", gettext_lazy("Split")
    ADVENTURE = "adventure", gettext_lazy("Adventure")
    SAGA = "saga", gettext_lazy("Saga")
    CLASS = "class", gettext_lazy("Class")
    LEVELER = "leveler", gettext_lazy("Leveler")
    OTHER = "other", gettext_lazy("Other")


# Physically two-sided cards: what R9-R17 call DFCs. Meld cards are printed with half of the
# melded permanent on the back, so they need sleeves or a checklist card too (the Eldritch
# Moon checklist lists them).
DFC_LAYOUTS = frozenset({Layout.TRANSFORM, Layout.MODAL_DFC, Layout.MELD})


class Rarity(models.TextChoices):
    COMMON = "common", gettext_lazy("Common")
    UNCOMMON = "uncommon", gettext_lazy("Uncommon")
    RARE = "rare", gettext_lazy("Rare")
    MYTHIC = "mythic", gettext_lazy("Mythic rare")
    SPECIAL = "special", gettext_lazy("Special")
    BONUS = "bonus", gettext_lazy("Bonus")


class CardSet(models.Model):
    """An expansion. ``booster`` keeps MTGJSON's collation (sheets with weights) verbatim."""

    code = models.CharField(max_length=10, unique=True)
    name = models.CharField(max_length=200)
    release_date = models.DateField(null=True, blank=True)
    set_type = models.CharField(max_length=40, blank=True)
    parent_code = models.CharField(max_length=10, blank=True)
    booster = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["code"]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class Card(models.Model):
    """One oracle card: every printing of "Gatstaf Shepherd // Gatstaf Howler" is this row."""

    name = models.CharField(max_length=300, unique=True)
    # Lower-cased, accents and punctuation folded: what look-ups compare against.
    search_name = models.CharField(max_length=300, db_index=True)
    layout = models.CharField(max_length=20, choices=Layout.choices, default=Layout.NORMAL)
    # WUBRG letters in that order, across every face (R39).
    color_identity = models.CharField(max_length=5, blank=True)
    oracle_id = models.UUIDField(null=True, blank=True, unique=True)
    # Digest of everything imported for this card: lets a re-import tell "unchanged" cheaply.
    data_hash = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_dfc(self) -> bool:
        return self.layout in DFC_LAYOUTS


# A face's rules text, in the order the API shows it (the importer stores these plus the
# folded ``search_name``).
FACE_TEXT_FIELDS = [
    "name",
    "mana_cost",
    "mana_value",
    "type_line",
    "supertypes",
    "card_types",
    "subtypes",
    "oracle_text",
    "colors",
    "color_indicator",
    "power",
    "toughness",
    "loyalty",
    "defense",
    "disguise_cost",
    "morph_cost",
    "megamorph_cost",
]


class CardFace(models.Model):
    """A face (DFC side, flip half, split half, adventure) in printed order; 0 is the front."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="faces")
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=200)
    search_name = models.CharField(max_length=200, db_index=True)
    mana_cost = models.CharField(max_length=60, blank=True)
    mana_value = models.FloatField(default=0)
    type_line = models.CharField(max_length=200, blank=True)
    supertypes = models.JSONField(default=list, blank=True)
    card_types = models.JSONField(default=list, blank=True)
    subtypes = models.JSONField(default=list, blank=True)
    oracle_text = models.TextField(blank=True)
    colors = models.CharField(max_length=5, blank=True)
    # Empty when the face has none; a back face's color indicator is how it gets its color (R1).
    color_indicator = models.CharField(max_length=5, blank=True)
    power = models.CharField(max_length=10, blank=True)
    toughness = models.CharField(max_length=10, blank=True)
    loyalty = models.CharField(max_length=10, blank=True)
    defense = models.CharField(max_length=10, blank=True)
    # Costs of the face-down mechanics, parsed from the rules text (R18-R23, R26).
    disguise_cost = models.CharField(max_length=60, blank=True)
    morph_cost = models.CharField(max_length=60, blank=True)
    megamorph_cost = models.CharField(max_length=60, blank=True)

    class Meta:
        ordering = ["card_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["card", "position"], name="cardface_unique_position"),
        ]

    def __str__(self) -> str:
        return self.name


class Printing(models.Model):
    """A card as printed in one set (one Scryfall id)."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="printings")
    card_set = models.ForeignKey(CardSet, on_delete=models.CASCADE, related_name="printings")
    collector_number = models.CharField(max_length=20, blank=True)
    rarity = models.CharField(max_length=10, choices=Rarity.choices, default=Rarity.COMMON)
    scryfall_id = models.UUIDField(null=True, blank=True, unique=True)
    # MTGJSON's uuid of the front face record: the key MTGJSON booster sheets
    # (CardSet.booster) use to name the cards they hold.
    mtgjson_uuid = models.UUIDField(null=True, blank=True, unique=True)
    # Magic Online's catalogue ids (MTGJSON ``identifiers.mtgoId`` / ``mtgoFoilId``): the
    # ``CatID`` of a .dek line. None when MTGO never had the printing.
    mtgo_id = models.PositiveIntegerField(null=True, blank=True)
    mtgo_foil_id = models.PositiveIntegerField(null=True, blank=True)
    # {"front": url, "back": url} style links, one per face that has its own image.
    image_uris = models.JSONField(default=dict, blank=True)
    # False for promos and extras that never appear in the set's draft boosters.
    in_boosters = models.BooleanField(default=True)
    data_hash = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["card_set__code", "collector_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["card_set", "collector_number"],
                condition=~Q(collector_number=""),
                name="printing_unique_set_number",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.card.name} ({self.card_set.code} {self.collector_number})"


class ChecklistKind(models.TextChoices):
    CHECKLIST = "checklist", gettext_lazy("Checklist card")
    SUBSTITUTE = "substitute", gettext_lazy("Substitute card")


class ChecklistCard(models.Model):
    """An official checklist or substitute card (R11). Only these may stand in for a DFC.

    A checklist card lists DFCs by name and the player marks exactly one (R10); a substitute
    card stands for one DFC of its parent set.
    """

    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=12, choices=ChecklistKind.choices)
    set_code = models.CharField(max_length=10)  # the token set, e.g. TISD or SZNR
    parent_set_code = models.CharField(max_length=10, blank=True)  # e.g. ISD or ZNR
    collector_number = models.CharField(max_length=20)
    scryfall_id = models.UUIDField(null=True, blank=True, unique=True)
    oracle_text = models.TextField(blank=True)
    search_name = models.CharField(max_length=200, db_index=True)

    class Meta:
        ordering = ["set_code", "collector_number"]
        constraints = [
            models.UniqueConstraint(fields=["set_code", "collector_number"], name="checklist_unique_set_number"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.set_code} {self.collector_number})"


class ChecklistEntry(models.Model):
    """One DFC printed on a checklist card (or one DFC a substitute card may stand for).

    ``printed_name`` is kept as printed; ``card`` links to the catalogue once that DFC has been
    imported (entries are relinked after every import, in whatever order files arrive).
    """

    checklist = models.ForeignKey(ChecklistCard, on_delete=models.CASCADE, related_name="entries")
    position = models.PositiveSmallIntegerField()
    printed_name = models.CharField(max_length=200)
    card = models.ForeignKey(Card, null=True, blank=True, on_delete=models.SET_NULL, related_name="checklist_entries")

    class Meta:
        ordering = ["checklist_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["checklist", "printed_name"], name="checklistentry_unique_name"),
        ]

    def __str__(self) -> str:
        return f"{self.checklist}: {self.printed_name}"


class LocalizedName(models.Model):
    """A face's name as printed in another language (MTGJSON ``foreignData``, Scryfall's
    ``printed_name``), so players find cards and write decklists with the names on their cards.

    A face may carry several names in one language when a reprint changed the translation;
    every printed name is kept. ``search_name`` is the folded key look-ups compare against.
    """

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="localized_names")
    position = models.PositiveSmallIntegerField()  # the face, as in CardFace.position
    language = models.CharField(max_length=10)  # "pt-br", "es", "it", "ru", "de", "ja", ...
    name = models.CharField(max_length=200)
    search_name = models.CharField(max_length=200, db_index=True)

    class Meta:
        ordering = ["card_id", "position", "language", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["card", "position", "language", "name"], name="localizedname_unique_printed_name"
            ),
        ]
        indexes = [models.Index(fields=["language", "search_name"], name="localizedname_lang_search")]

    def __str__(self) -> str:
        return f"{self.name} ({self.language})"


class CardImage(models.Model):
    """The site's own copy of one face's image of a printing (cards.images): fetched once
    from the image host, kept in the storage CARD_IMAGE_STORAGE names, evicted least
    recently used past CARD_IMAGE_MAX_BYTES."""

    class State(models.TextChoices):
        PENDING = "pending"
        STORED = "stored"
        FAILED = "failed"

    printing = models.ForeignKey(Printing, on_delete=models.CASCADE, related_name="image_copies")
    face = models.CharField(max_length=10)
    # A short hash of the source URL: a new picture from a re-import is a new copy (and URL).
    key = models.CharField(max_length=16)
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    stored_name = models.CharField(max_length=200, blank=True)
    content_type = models.CharField(max_length=50, blank=True)
    size = models.PositiveIntegerField(default=0)
    attempted_at = models.DateTimeField(null=True, blank=True)
    last_used = models.DateTimeField(db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["printing", "face", "key"], name="card_image_unique_copy"),
        ]

    def __str__(self) -> str:
        return f"{self.printing_id}/{self.face} ({self.state})"
