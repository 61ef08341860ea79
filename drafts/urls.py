"""Draft engine routes."""

from django.urls import path

from drafts import api, api_staff

api_urlpatterns = [
    path("events/", api.EventListView.as_view(), name="api-event-list"),
    path("events/<int:pk>/", api.EventDetailView.as_view(), name="api-event-detail"),
    path("events/<int:pk>/registrations/", api.RegistrationListView.as_view(), name="api-registrations"),
    path("events/<int:pk>/seating/", api.SeatingView.as_view(), name="api-seating"),
    path("events/<int:pk>/pods/", api.EventPodsView.as_view(), name="api-event-pods"),
    path("events/<int:pk>/staff/", api_staff.EventStaffView.as_view(), name="api-event-staff"),
    path("events/<int:pk>/staff/<int:staff_id>/", api_staff.EventStaffDetailView.as_view(),
         name="api-event-staff-detail"),
    path("events/<int:pk>/staff-invitations/", api_staff.StaffInvitationListView.as_view(),
         name="api-staff-invitations"),
    path("events/<int:pk>/staff-invitations/<int:invitation_id>/", api_staff.StaffInvitationDetailView.as_view(),
         name="api-staff-invitation-detail"),
    path("staff-invitations/<str:token>/accept/", api_staff.StaffInvitationAcceptView.as_view(),
         name="api-staff-invitation-accept"),
    path("pods/<int:pk>/", api.PodDetailView.as_view(), name="api-pod-detail"),
    path("pods/<int:pk>/board/", api.PodBoardView.as_view(), name="api-pod-board"),
    path("pods/<int:pk>/move-player/", api.MovePlayerView.as_view(), name="api-pod-move-player"),
    *[
        path(f"pods/<int:pk>/{name}/", api.PodActionView.as_view(action_name=name), name=f"api-pod-{name}")
        for name in api.POD_ACTIONS
    ],
    path("seats/<int:pk>/", api.SeatView.as_view(), name="api-seat"),
    path("seats/<int:pk>/queue/", api.QueueView.as_view(), name="api-seat-queue"),
    path("seats/<int:pk>/picks/", api.PickView.as_view(), name="api-seat-picks"),
    path("seats/<int:pk>/pile/", api.PileMoveView.as_view(), name="api-seat-pile"),
    path("seats/<int:pk>/pile-cover/", api.PileCoverView.as_view(), name="api-seat-pile-cover"),
    path("seats/<int:pk>/ready/", api.ReadyView.as_view(), name="api-seat-ready"),
    path("seats/<int:pk>/replace/", api.ReplaceSeatView.as_view(), name="api-seat-replace"),
    path("seats/<int:pk>/log/", api.DraftLogView.as_view(), name="api-seat-log"),
    path("seats/<int:pk>/log/text/", api.DraftLogTextView.as_view(), name="api-seat-log-text"),
]
