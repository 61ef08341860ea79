"""Routes of the matches app: API (under /api/) and pages (under /matches/)."""

from django.urls import path

from matches.api import standings
from matches.api import views as api
from matches.views import pages

api_urlpatterns = [
    path("standings/compute", standings.StandingsComputeView.as_view(), name="matches-standings-compute"),
    path("standings/compute/", standings.StandingsComputeSlashView.as_view(), name="matches-standings-compute-slash"),
    path("events/<int:event_id>/matches/settings/", api.SettingsView.as_view(), name="matches-settings"),
    path("events/<int:event_id>/rounds/", api.RoundListView.as_view(), name="matches-rounds"),
    path("events/<int:event_id>/standings/", api.StandingsView.as_view(), name="matches-standings"),
    path("events/<int:event_id>/drops/", api.DropView.as_view(), name="matches-drops"),
    path("events/<int:event_id>/my-match/", api.MyMatchView.as_view(), name="matches-my-match"),
    *[
        path(f"events/<int:event_id>/{kind}.csv", api.CsvView.as_view(kind=kind), name=f"matches-{kind}-csv")
        for kind in ("pairings", "results", "standings")
    ],
    path("rounds/<int:pk>/", api.RoundDetailView.as_view(), name="matches-round"),
    path("rounds/<int:pk>/start/", api.RoundActionView.as_view(action_name="start"), name="matches-round-start"),
    path("rounds/<int:pk>/finish/", api.RoundActionView.as_view(action_name="finish"), name="matches-round-finish"),
    path("rounds/<int:pk>/repair/", api.RepairView.as_view(), name="matches-round-repair"),
    path("matches/<int:pk>/", api.MatchDetailView.as_view(), name="matches-match"),
    path("matches/<int:pk>/report/", api.ReportView.as_view(), name="matches-report"),
    path("matches/<int:pk>/confirm/", api.ConfirmView.as_view(), name="matches-confirm"),
    path("matches/<int:pk>/result/", api.ResultView.as_view(), name="matches-result"),
    path("matches/<int:pk>/extension/", api.ExtensionView.as_view(), name="matches-extension"),
]

page_urlpatterns = [
    path("events/<int:event_id>/", pages.dashboard, name="dashboard"),
    path("events/<int:event_id>/panel/", pages.dashboard_panel, name="dashboard-panel"),
    path("events/<int:event_id>/settings/", pages.settings_form, name="settings"),
    path("events/<int:event_id>/pair/", pages.pair, name="pair"),
    path("events/<int:event_id>/me/", pages.my_match, name="me"),
    path("events/<int:event_id>/me/panel/", pages.my_match_panel, name="me-panel"),
    path("events/<int:event_id>/drop/", pages.drop, name="drop"),
    path("events/<int:event_id>/standings/", pages.standings, name="standings"),
    path("events/<int:event_id>/clock/", pages.projector, name="clock"),
    path("events/<int:event_id>/clock/panel/", pages.projector_panel, name="clock-panel"),
    path("events/<int:event_id>/<str:kind>.csv", pages.csv_export, name="csv"),
    path("rounds/<int:round_id>/", pages.pairings, name="pairings"),
    path("rounds/<int:round_id>/slips/", pages.slips, name="slips"),
    path("rounds/<int:round_id>/control/<slug:action>/", pages.round_control, name="round-control"),
    path("rounds/<int:round_id>/repair/", pages.repair, name="repair"),
    path("matches/<int:match_id>/report/", pages.report, name="report"),
    path("matches/<int:match_id>/confirm/", pages.confirm, name="confirm"),
    path("matches/<int:match_id>/result/", pages.staff_result, name="result"),
    path("matches/<int:match_id>/extension/", pages.extension, name="extension"),
]
