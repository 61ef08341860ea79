"""Routes of push: the manifest and service worker at the site's root (``root_urlpatterns``),
the API and the notifications page (namespace "push")."""

from django.urls import path

from push import api, views

root_urlpatterns = [
    path("manifest.webmanifest", views.manifest, name="web-manifest"),
    path("sw.js", views.service_worker, name="service-worker"),
]

api_urlpatterns = [
    path("push/", api.PushStatusView.as_view(), name="push-status"),
    path("push/subscriptions/", api.SubscriptionView.as_view(), name="push-subscriptions"),
    path("events/<int:event_id>/push/", api.EventPushView.as_view(), name="push-event"),
    path("events/<int:event_id>/announcements/", api.AnnouncementView.as_view(), name="push-announcements"),
]

page_urlpatterns = [
    path("events/<int:event_id>/", views.event_notifications, name="event"),
]
