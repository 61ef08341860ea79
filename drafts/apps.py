from django.apps import AppConfig


class DraftsConfig(AppConfig):
    default_auto_field = 'django.db.models.BigAutoField'
    name = 'drafts'
