"""Routes of the penalties app: API (included under /api/) and pages (under /penalties/)."""

from django.urls import path

from penalties.api import views as api
from penalties.views import pages

api_urlpatterns = [
    path("infractions/", api.InfractionListView.as_view(), name="penalties-infractions"),
    path("events/<int:event_id>/penalties/", api.EventPenaltiesView.as_view(), name="penalties-event"),
    path("events/<int:event_id>/penalties.csv", api.EventPenaltiesCsvView.as_view(), name="penalties-event-csv"),
    path("events/<int:event_id>/timeout-picks/", api.EventTimeoutPicksView.as_view(), name="penalties-timeout-picks"),
    path(
        "events/<int:event_id>/timeout-picks/dismiss/",
        api.EventTimeoutPicksDismissView.as_view(),
        name="penalties-timeout-picks-dismiss",
    ),
    path("penalties/queue/", api.ReviewQueueView.as_view(), name="penalties-queue"),
    path("penalties/<int:pk>/", api.PenaltyDetailView.as_view(), name="penalties-detail"),
    path("penalties/<int:pk>/review/", api.PenaltyReviewView.as_view(), name="penalties-review"),
    path("penalties/<int:pk>/appeal/", api.PenaltyAppealView.as_view(), name="penalties-appeal"),
    path("penalties/<int:pk>/appeal/decision/", api.AppealDecisionView.as_view(), name="penalties-appeal-decision"),
    path("penalties/<int:pk>/statement/", api.PenaltyStatementView.as_view(), name="penalties-statement"),
    path("me/penalties/", api.MyPenaltiesView.as_view(), name="penalties-mine"),
    path("players/<int:user_id>/penalties/", api.PlayerPenaltiesView.as_view(), name="penalties-player"),
]

page_urlpatterns = [
    path("", pages.my_penalties, name="mine"),
    path("new/", pages.issue, name="new"),
    path("queue/", pages.review_queue, name="queue"),
    path("players/", pages.players, name="players"),
    path("events/<int:event_id>/", pages.event_penalties, name="event"),
    path("events/<int:event_id>/report/", pages.event_report, name="event-report"),
    path("events/<int:event_id>/report.csv", pages.event_report_csv, name="event-report-csv"),
    path("events/<int:event_id>/dismiss/", pages.dismiss, name="dismiss"),
    path("events/<int:event_id>/dismiss-many/", pages.dismiss_many, name="dismiss-many"),
    path("<int:pk>/", pages.detail, name="detail"),
    path("<int:pk>/review/", pages.review, name="review"),
    path("<int:pk>/appeal/", pages.appeal, name="appeal"),
    path("<int:pk>/appeal/decision/", pages.appeal_decision, name="appeal-decision"),
    path("<int:pk>/statement/", pages.statement, name="statement"),
    path("<int:pk>/disqualification/", pages.disqualification_report, name="disqualification"),
    path("<int:pk>/notice/", pages.notice, name="notice"),
    path("<int:pk>/notice/record/", pages.notice_record, name="notice-record"),
]
