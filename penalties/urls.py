"""Routes of the penalties app: API (included under /api/) and pages (under /penalties/)."""

from django.urls import path

from penalties import api, views

api_urlpatterns = [
    path("infractions/", api.InfractionListView.as_view(), name="penalties-infractions"),
    path("events/<int:event_id>/penalties/", api.EventPenaltiesView.as_view(), name="penalties-event"),
    path("events/<int:event_id>/penalties.csv", api.EventPenaltiesCsvView.as_view(), name="penalties-event-csv"),
    path("events/<int:event_id>/timeout-picks/", api.EventTimeoutPicksView.as_view(),
         name="penalties-timeout-picks"),
    path("penalties/queue/", api.ReviewQueueView.as_view(), name="penalties-queue"),
    path("penalties/<int:pk>/", api.PenaltyDetailView.as_view(), name="penalties-detail"),
    path("penalties/<int:pk>/review/", api.PenaltyReviewView.as_view(), name="penalties-review"),
    path("penalties/<int:pk>/appeal/", api.PenaltyAppealView.as_view(), name="penalties-appeal"),
    path("penalties/<int:pk>/appeal/decision/", api.AppealDecisionView.as_view(),
         name="penalties-appeal-decision"),
    path("penalties/<int:pk>/statement/", api.PenaltyStatementView.as_view(), name="penalties-statement"),
    path("me/penalties/", api.MyPenaltiesView.as_view(), name="penalties-mine"),
    path("players/<int:user_id>/penalties/", api.PlayerPenaltiesView.as_view(), name="penalties-player"),
]

page_urlpatterns = [
    path("", views.my_penalties, name="mine"),
    path("new/", views.issue, name="new"),
    path("queue/", views.review_queue, name="queue"),
    path("players/", views.players, name="players"),
    path("events/<int:event_id>/", views.event_penalties, name="event"),
    path("events/<int:event_id>/report/", views.event_report, name="event-report"),
    path("events/<int:event_id>/report.csv", views.event_report_csv, name="event-report-csv"),
    path("events/<int:event_id>/dismiss/", views.dismiss, name="dismiss"),
    path("<int:pk>/", views.detail, name="detail"),
    path("<int:pk>/review/", views.review, name="review"),
    path("<int:pk>/appeal/", views.appeal, name="appeal"),
    path("<int:pk>/appeal/decision/", views.appeal_decision, name="appeal-decision"),
    path("<int:pk>/statement/", views.statement, name="statement"),
    path("<int:pk>/disqualification/", views.disqualification_report, name="disqualification"),
]
