"""Routes of the matches app: API (under /api/) and pages (under /matches/)."""

from django.urls import path

from matches.api import standings

api_urlpatterns = [
    path("standings/compute", standings.StandingsComputeView.as_view(), name="matches-standings-compute"),
    path("standings/compute/", standings.StandingsComputeView.as_view()),
]

page_urlpatterns = []
