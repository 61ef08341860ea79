"""Routes of the paper app: API (included under /api/paper/) and pages (under /paper/)."""

from django.urls import path

from paper.api import views as api
from paper.views import pages

api_urlpatterns = [
    path("paper/pods/<int:pk>/call/", api.CallView.as_view(), name="paper-api-call"),
    path("paper/pods/<int:pk>/start/", api.StartCallView.as_view(), name="paper-api-start"),
    *[
        path(f"paper/pods/<int:pk>/{name}/", api.PodControlView.as_view(action_name=name), name=f"paper-api-pod-{name}")
        for name in api.POD_CONTROLS
    ],
    path("paper/pods/<int:pk>/dfcs/", api.PostedDfcsView.as_view(), name="paper-api-dfcs"),
    path("paper/dfcs/<int:pk>/", api.PostedDfcView.as_view(), name="paper-api-dfc"),
    path("paper/events/<int:pk>/flights/", api.FlightsView.as_view(), name="paper-api-flights"),
    path("paper/events/<int:pk>/followers/", api.FollowersView.as_view(), name="paper-api-followers"),
    path("paper/events/<int:pk>/seating/", api.SeatingListView.as_view(), name="paper-api-seating"),
    *[
        path(
            f"paper/flights/<int:pk>/{name}/",
            api.FlightControlView.as_view(action_name=name),
            name=f"paper-api-flight-{name}",
        )
        for name in api.POD_CONTROLS
    ],
    path("paper/follow/<str:token>/", api.FollowView.as_view(), name="paper-api-follow"),
]

page_urlpatterns = [
    path("events/<int:event_id>/", pages.room, name="room"),
    path("events/<int:event_id>/control/<slug:action>/", pages.room_control, name="room-control"),
    path("events/<int:event_id>/slips/", pages.slips, name="slips"),
    path("events/<int:event_id>/wall/", pages.wall, name="wall"),
    path("pods/<int:pod_id>/", pages.pod_page, name="pod"),
    path("pods/<int:pod_id>/caller/", pages.caller, name="caller"),
    path("pods/<int:pod_id>/control/<slug:action>/", pages.pod_control, name="control"),
    path("pods/<int:pod_id>/table/", pages.table, name="table"),
    path("pods/<int:pod_id>/dfcs/", pages.post_dfc, name="post-dfc"),
    path("dfcs/<int:posted_id>/withdraw/", pages.withdraw_dfc, name="withdraw-dfc"),
    path("flights/<int:flight_id>/control/<slug:action>/", pages.flight_control, name="flight-control"),
    path("follow/<str:token>/", pages.follow, name="follow"),
    path("follow/<str:token>/table/", pages.follow_table, name="follow-table"),
]
