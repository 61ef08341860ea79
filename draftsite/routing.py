"""Websocket routes. Each app that pushes live updates adds its consumers here."""

from django.urls import path

from draftsite.consumers import PingConsumer

websocket_urlpatterns = [
    path("ws/ping/", PingConsumer.as_asgi()),
]
