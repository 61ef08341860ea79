"""Each draft card's entry in its pod's document, kept on its row by ``drafts_draftcard_entry``
(drafts/sql/drafts_draftcard_entry.sql, created by 0018). A column of the database only: no
Django code reads or writes it; the trigger fills it on every insert and on every update of the
columns it is made of. Existing rows are filled here, through the trigger (one pass over the table)."""

from django.db import migrations

COLUMNS = "id, card_id, printing_id, rarity, foil, is_dfc"

FORWARDS = [
    "ALTER TABLE drafts_draftcard ADD COLUMN document_entry json",
    f"""CREATE TRIGGER drafts_draftcard_entry BEFORE INSERT OR UPDATE OF {COLUMNS} ON drafts_draftcard
        FOR EACH ROW EXECUTE FUNCTION drafts_draftcard_entry()""",
    # Fill existing rows through the trigger (an update of one of its columns), so the entry's
    # shape is written in one place.
    "UPDATE drafts_draftcard SET card_id = card_id",
    "ALTER TABLE drafts_draftcard ALTER COLUMN document_entry SET NOT NULL",
]

BACKWARDS = [
    "DROP TRIGGER drafts_draftcard_entry ON drafts_draftcard",
    "ALTER TABLE drafts_draftcard DROP COLUMN document_entry",
]


class Migration(migrations.Migration):
    dependencies = [
        ("drafts", "0018_stored_functions"),
    ]

    operations = [migrations.RunSQL(FORWARDS, reverse_sql=BACKWARDS)]
