"""Routes of the draft engine: its API (``api_urlpatterns``, mounted under /api/) and its pages
(``page_urlpatterns``, mounted at /events/ in the namespace "drafts", with the events app's)."""

from django.urls import path

from drafts.api import views as api_views
from drafts.views import cardsheet, events, player, spectator, staff

api_urlpatterns = [
    path("events/", api_views.EventListView.as_view(), name="api-event-list"),
    path("sets/<str:code>/boosters/", api_views.SetBoostersView.as_view(), name="api-set-boosters"),
    path("events/<int:pk>/seating/", api_views.SeatingView.as_view(), name="api-seating"),
    path("events/<int:pk>/pods/", api_views.EventPodsView.as_view(), name="api-event-pods"),
    *[
        path(
            f"events/<int:pk>/pods/{name}/",
            api_views.EventPodsActionView.as_view(action_name=name),
            name=f"api-event-pods-{name}",
        )
        for name in api_views.EVENT_POD_ACTIONS
    ],
    path("pods/<int:pk>/", api_views.PodDetailView.as_view(), name="api-pod-detail"),
    path("pods/<int:pk>/board/", api_views.PodBoardView.as_view(), name="api-pod-board"),
    path("pods/<int:pk>/move-player/", api_views.MovePlayerView.as_view(), name="api-pod-move-player"),
    path("pods/<int:pk>/extend/", api_views.ExtendClocksView.as_view(), name="api-pod-extend"),
    path(
        "pods/<int:pk>/deck-building-clock/",
        api_views.DeckBuildingClockView.as_view(),
        name="api-pod-deck-building-clock",
    ),
    path(
        "pods/<int:pk>/start-deck-building/",
        api_views.StartDeckBuildingView.as_view(),
        name="api-pod-start-deck-building",
    ),
    path("pods/<int:pk>/spectator-link/", api_views.SpectatorLinkView.as_view(), name="api-pod-spectator-link"),
    *[
        path(f"pods/<int:pk>/{name}/", api_views.PodActionView.as_view(action_name=name), name=f"api-pod-{name}")
        for name in api_views.POD_ACTIONS
    ],
    path("seats/<int:pk>/", api_views.SeatView.as_view(), name="api-seat"),
    path("seats/<int:pk>/queue/", api_views.QueueView.as_view(), name="api-seat-queue"),
    path("seats/<int:pk>/picks/", api_views.PickView.as_view(), name="api-seat-picks"),
    path("seats/<int:pk>/pile/", api_views.PileMoveView.as_view(), name="api-seat-pile"),
    path("seats/<int:pk>/pile-cover/", api_views.PileCoverView.as_view(), name="api-seat-pile-cover"),
    path("seats/<int:pk>/ready/", api_views.ReadyView.as_view(), name="api-seat-ready"),
    path("seats/<int:pk>/replace/", api_views.ReplaceSeatView.as_view(), name="api-seat-replace"),
    path("seats/<int:pk>/log/", api_views.DraftLogView.as_view(), name="api-seat-log"),
    path("seats/<int:pk>/log/text/", api_views.DraftLogTextView.as_view(), name="api-seat-log-text"),
]

page_urlpatterns = [
    # Drafted events (the event list and page: events.urls)
    path("new/", events.event_create, name="event-create"),
    path("<int:event_id>/seating/", events.event_seating, name="event-seating"),
    path("<int:event_id>/dashboard/", staff.dashboard, name="dashboard"),
    path("<int:event_id>/dashboard/panel/", staff.dashboard_panel, name="dashboard-panel"),
    path("<int:event_id>/pods/<slug:action>/", staff.event_pods_control, name="event-pods-control"),
    path("<int:event_id>/report.csv", staff.event_report, name="event-report"),
    # Card sheets (drafts.cardsheet): the event's cards, once per page; cards a sheet lacks
    path("<int:event_id>/cards/<slug:digest>.<slug:language>.json", cardsheet.card_sheet, name="card-sheet"),
    path("cards/", cardsheet.card_batch, name="card-batch"),
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
