"""Routes of the judges' rules desk: the simulate API and its page."""

from django.urls import path

from cards import rules_api, rules_views

api_urlpatterns: list = [
    # /api/rules/simulate, with or without the trailing slash.
    path("rules/simulate", rules_api.SimulateView.as_view(), name="rules-simulate"),
    path("rules/simulate/", rules_api.SimulateSlashView.as_view(), name="rules-simulate-slash"),
]
page_urlpatterns: list = [
    path("", rules_views.desk, name="desk"),
]
