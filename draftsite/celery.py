"""Celery application. Without REDIS_URL tasks run eagerly inside the caller (see settings)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "draftsite.settings")

app = Celery("draftsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
