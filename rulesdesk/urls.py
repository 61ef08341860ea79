"""Routes of the judges' rules desk: the simulate API and its page."""

from django.urls import path

from rulesdesk.api import views as api_views
from rulesdesk.views import pages

api_urlpatterns: list = [
    # /api/rules/simulate, with or without the trailing slash.
    path("rules/simulate", api_views.SimulateView.as_view(), name="rules-simulate"),
    path("rules/simulate/", api_views.SimulateSlashView.as_view(), name="rules-simulate-slash"),
]
page_urlpatterns: list = [
    path("", pages.desk, name="desk"),
]
