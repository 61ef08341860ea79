"""Routes of the judge calls app: API (under /api/) and pages (under /judge-calls/)."""

from django.urls import path

from judgecalls.api import views as api
from judgecalls.views import pages

api_urlpatterns = [
    path("matches/<int:pk>/judge-call/", api.MatchCallView.as_view(), name="judgecalls-match-call"),
    path("seats/<int:pk>/judge-call/", api.SeatCallView.as_view(), name="judgecalls-seat-call"),
    path("events/<int:event_id>/judge-calls/", api.QueueView.as_view(), name="judgecalls-queue"),
    path("judge-calls/<int:pk>/", api.CallDetailView.as_view(), name="judgecalls-detail"),
    *[
        path(f"judge-calls/<int:pk>/{action}/", api.CallStepView.as_view(action=action), name=f"judgecalls-{action}")
        for action in ("claim", "escalate", "extension", "resolve")
    ],
    # The site's proposed penalties (the proposals page's API): one by its source, or many.
    path("events/<int:event_id>/penalty-proposals/", api.ProposalListView.as_view(), name="judgecalls-proposals"),
    path(
        "events/<int:event_id>/penalty-proposals/issue/",
        api.ProposalIssueView.as_view(),
        name="judgecalls-proposals-issue",
    ),
    path(
        "events/<int:event_id>/penalty-proposals/dismiss/",
        api.ProposalDismissView.as_view(),
        name="judgecalls-proposals-dismiss",
    ),
    path(
        "events/<int:event_id>/penalty-proposals/<str:source>/issue/",
        api.ProposalIssueView.as_view(one=True),
        name="judgecalls-proposal-issue",
    ),
    path(
        "events/<int:event_id>/penalty-proposals/<str:source>/dismiss/",
        api.ProposalDismissView.as_view(one=True),
        name="judgecalls-proposal-dismiss",
    ),
]

page_urlpatterns = [
    path("matches/<int:match_id>/call/", pages.call_from_match, name="call-match"),
    path("seats/<int:seat_id>/call/", pages.call_from_seat, name="call-seat"),
    path("seats/<int:seat_id>/box/", pages.seat_call_box, name="seat-box"),
    path("events/<int:event_id>/", pages.queue, name="queue"),
    path("events/<int:event_id>/panel/", pages.queue_panel, name="queue-panel"),
    path("events/<int:event_id>/proposals/", pages.proposals, name="proposals"),
    path("<int:call_id>/", pages.call_context, name="context"),
    path("<int:call_id>/<slug:action>/", pages.step, name="step"),
]
