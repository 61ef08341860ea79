from django.db import migrations

ROLE_GROUPS = ("organiser", "head judge", "judge", "player")


# The database being migrated, which need not be the default one.
def create_groups(apps, schema_editor):
    groups = apps.get_model("auth", "Group").objects.using(schema_editor.connection.alias)
    for name in ROLE_GROUPS:
        groups.get_or_create(name=name)


def remove_groups(apps, schema_editor):
    apps.get_model("auth", "Group").objects.using(schema_editor.connection.alias).filter(name__in=ROLE_GROUPS).delete()


class Migration(migrations.Migration):
    dependencies = [("auth", "0012_alter_user_first_name_max_length")]
    operations = [migrations.RunPython(create_groups, remove_groups)]
