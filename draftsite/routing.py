"""Websocket routes. Each app that pushes live updates adds its consumers here."""

from django.urls import path

from drafts import consumers as draft_consumers
from draftsite.consumers import PingConsumer
from judgecalls import consumers as judgecall_consumers
from matches import consumers as match_consumers
from paper import consumers as paper_consumers

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
    # Live draft pages (drafts.consumers documents the protocol).
    path("ws/seats/<int:seat_id>/", draft_consumers.SeatSocket.as_asgi()),
    path("ws/pods/<int:pod_id>/", draft_consumers.PodSocket.as_asgi()),
    path("ws/events/<int:event_id>/", draft_consumers.EventSocket.as_asgi()),
    path("ws/watch/<str:token>/", draft_consumers.SpectatorSocket.as_asgi()),
    # Live match pages (matches.consumers documents the protocol).
    path("ws/matches/events/<int:event_id>/", match_consumers.EventMatchesSocket.as_asgi()),
    # The judge-call queue, staff only (judgecalls.consumers and judgecalls.protocol).
    path("ws/judgecalls/events/<int:event_id>/", judgecall_consumers.JudgeQueueSocket.as_asgi()),
    # The caller's own call box on the draft page, the seat's player only.
    path("ws/judgecalls/seats/<int:seat_id>/", judgecall_consumers.CallerSocket.as_asgi()),
    # The called paper draft (paper.consumers documents the protocol).
    path("ws/paper/pods/<int:pod_id>/", paper_consumers.CallSocket.as_asgi()),
    path("ws/paper/follow/<str:token>/", paper_consumers.FollowSocket.as_asgi()),
]
