"""Routes of the events app: its API (``api_urlpatterns``, mounted under /api/) and its pages
(``page_urlpatterns``, mounted at /events/ with the draft engine's, in the namespace "drafts"
the event pages have always had: every link and ``reverse`` keeps its name)."""

from django.urls import path

from events.api import staff as staff_api
from events.api import views as api_views
from events.views import pages, registrations, staff

api_urlpatterns = [
    # The list (GET) is the events API's; creating a drafted event (POST) the draft engine's:
    # drafts.urls routes /api/events/ to drafts.api.views.EventListView, which extends this one's.
    path("events/<int:pk>/", api_views.EventDetailView.as_view(), name="api-event-detail"),
    path("events/<int:pk>/registrations/", api_views.RegistrationListView.as_view(), name="api-registrations"),
    path("events/<int:pk>/staff/", staff_api.EventStaffView.as_view(), name="api-event-staff"),
    path(
        "events/<int:pk>/staff/<int:staff_id>/", staff_api.EventStaffDetailView.as_view(), name="api-event-staff-detail"
    ),
    path(
        "events/<int:pk>/staff-invitations/", staff_api.StaffInvitationListView.as_view(), name="api-staff-invitations"
    ),
    path(
        "events/<int:pk>/staff-invitations/<int:invitation_id>/",
        staff_api.StaffInvitationDetailView.as_view(),
        name="api-staff-invitation-detail",
    ),
    path(
        "staff-invitations/<str:token>/accept/",
        staff_api.StaffInvitationAcceptView.as_view(),
        name="api-staff-invitation-accept",
    ),
]

page_urlpatterns = [
    path("", pages.event_list, name="event-list"),
    path("<int:event_id>/", pages.event_detail, name="event-detail"),
    path("<int:event_id>/join/", registrations.event_join, name="event-join"),
    path("<int:event_id>/register/", registrations.event_register, name="event-register"),
    path("<int:event_id>/settings/", staff.settings_page, name="event-settings"),
    path("<int:event_id>/staff/", staff.staff_page, name="event-staff"),
    path("<int:event_id>/staff/add/", staff.staff_add, name="event-staff-add"),
    path("<int:event_id>/staff/<int:staff_id>/role/", staff.staff_role, name="event-staff-role"),
    path("<int:event_id>/staff/<int:staff_id>/remove/", staff.staff_remove, name="event-staff-remove"),
    path("<int:event_id>/staff/invite/", staff.staff_invite, name="event-staff-invite"),
    path(
        "<int:event_id>/staff/invitations/<int:invitation_id>/revoke/",
        staff.staff_invitation_revoke,
        name="event-staff-invitation-revoke",
    ),
    path("staff-invitations/<str:token>/", staff.invitation_page, name="staff-invitation"),
]
