"""Each printing's Magic Online ids (the ``CatID`` of a .dek line), read from MTGJSON.

The importers fill them from now on; this fills the printings a catalogue already holds from
the bundled MTGJSON files (matched by MTGJSON uuid), so an existing site need not re-import.
Printings from other sources get theirs at their next import.
"""

import gzip
import json
from pathlib import Path

from django.db import migrations, models

BUNDLED_MTGJSON = Path(__file__).resolve().parent.parent / "data" / "mtgjson"


def _ids(value) -> int | None:
    text = str(value or "").strip()
    return int(text) if text.isascii() and text.isdigit() and 0 < int(text) < 2**31 else None


def fill_from_bundled_mtgjson(apps, schema_editor):
    Printing = apps.get_model("cards", "Printing")
    if not Printing.objects.filter(mtgjson_uuid__isnull=False).exists():
        return  # a new database: the first import fills them
    for path in sorted(BUNDLED_MTGJSON.glob("*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            cards = (json.load(handle).get("data") or {}).get("cards") or []
        ids = {}
        for card in cards:
            identifiers = card.get("identifiers") or {}
            pair = (_ids(identifiers.get("mtgoId")), _ids(identifiers.get("mtgoFoilId")))
            if card.get("uuid") and pair != (None, None):
                ids[card["uuid"]] = pair
        rows = list(Printing.objects.filter(mtgjson_uuid__in=list(ids)))
        for row in rows:
            row.mtgo_id, row.mtgo_foil_id = ids[str(row.mtgjson_uuid)]
        Printing.objects.bulk_update(rows, ["mtgo_id", "mtgo_foil_id"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("cards", "0003_localized_names"),
    ]

    operations = [
        migrations.AddField(
            model_name="printing",
            name="mtgo_id",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="printing",
            name="mtgo_foil_id",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(fill_from_bundled_mtgjson, migrations.RunPython.noop),
    ]
