"""On PostgreSQL, refuse UPDATE and DELETE of audit rows in the database itself, so even raw
SQL cannot rewrite history. SQLite relies on the model and queryset guards (its test runs
flush tables with DELETE, which a trigger would break)."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION penalties_audit_immutable() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'audit_immutable: penalty audit records are append-only';
END;
$$ LANGUAGE plpgsql;
DROP TRIGGER IF EXISTS penalties_audit_immutable ON penalties_penaltyaudit;
CREATE TRIGGER penalties_audit_immutable BEFORE UPDATE OR DELETE ON penalties_penaltyaudit
    FOR EACH ROW EXECUTE FUNCTION penalties_audit_immutable();
"""
DROP = """
DROP TRIGGER IF EXISTS penalties_audit_immutable ON penalties_penaltyaudit;
DROP FUNCTION IF EXISTS penalties_audit_immutable();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("penalties", "0002_infraction_catalogue")]
    operations = [migrations.RunPython(forwards, backwards)]
