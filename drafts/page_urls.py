"""HTML pages of the draft engine, mounted at /events/ (namespace "drafts")."""

from django.urls import path

from drafts.views import event_staff, events, player, spectator, staff

page_urlpatterns = [
    # Events
    path("", events.event_list, name="event-list"),
    path("new/", events.event_create, name="event-create"),
    path("<int:event_id>/", events.event_detail, name="event-detail"),
    path("<int:event_id>/join/", events.event_join, name="event-join"),
    path("<int:event_id>/register/", events.event_register, name="event-register"),
    path("<int:event_id>/seating/", events.event_seating, name="event-seating"),
    path("<int:event_id>/settings/", event_staff.settings_page, name="event-settings"),
    path("<int:event_id>/staff/", event_staff.staff_page, name="event-staff"),
    path("<int:event_id>/staff/add/", event_staff.staff_add, name="event-staff-add"),
    path("<int:event_id>/staff/<int:staff_id>/role/", event_staff.staff_role, name="event-staff-role"),
    path("<int:event_id>/staff/<int:staff_id>/remove/", event_staff.staff_remove, name="event-staff-remove"),
    path("<int:event_id>/staff/invite/", event_staff.staff_invite, name="event-staff-invite"),
    path("<int:event_id>/staff/invitations/<int:invitation_id>/revoke/", event_staff.staff_invitation_revoke,
         name="event-staff-invitation-revoke"),
    path("staff-invitations/<str:token>/", event_staff.invitation_page, name="staff-invitation"),
    path("<int:event_id>/dashboard/", staff.dashboard, name="dashboard"),
    path("<int:event_id>/dashboard/panel/", staff.dashboard_panel, name="dashboard-panel"),
    path("<int:event_id>/report.csv", staff.event_report, name="event-report"),
    # Pods (staff; the board also for the pod's players)
    path("pods/<int:pod_id>/", staff.pod_detail, name="pod-detail"),
    path("pods/<int:pod_id>/panel/", staff.pod_panel, name="pod-panel"),
    path("pods/<int:pod_id>/control/<slug:action>/", staff.pod_control, name="pod-control"),
    path("pods/<int:pod_id>/board/", staff.pod_board, name="pod-board"),
    path("pods/<int:pod_id>/board/panel/", staff.pod_board_panel, name="pod-board-panel"),
    path("pods/<int:pod_id>/log.txt", staff.pod_log_text, name="pod-log-text"),
    path("pods/<int:pod_id>/log.json", staff.pod_log_json, name="pod-log-json"),
    # The player's draft page
    path("seats/<int:seat_id>/", player.seat_page, name="seat"),
    path("seats/<int:seat_id>/panel/", player.seat_panel, name="seat-panel"),
    path("seats/<int:seat_id>/pick/", player.seat_pick, name="seat-pick"),
    path("seats/<int:seat_id>/pile/", player.seat_pile, name="seat-pile"),
    path("seats/<int:seat_id>/pile-cover/", player.seat_pile_cover, name="seat-pile-cover"),
    path("seats/<int:seat_id>/ready/", player.seat_ready, name="seat-ready"),
    path("seats/<int:seat_id>/log.txt", player.seat_log_text, name="seat-log-text"),
    path("seats/<int:seat_id>/log.json", player.seat_log_json, name="seat-log-json"),
    # Spectators (revocable token)
    path("watch/<str:token>/", spectator.spectate, name="spectate"),
    path("watch/<str:token>/panel/", spectator.spectate_panel, name="spectate-panel"),
]
