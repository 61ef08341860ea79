"""Routes of the sealed app: API (included under /api/) and pages (under /sealed/)."""

from django.urls import path

from sealed.api import views as api
from sealed.views import pages

api_urlpatterns = [
    path("sealed/events/", api.SealedEventsView.as_view(), name="sealed-events"),
    path("sealed/events/<int:event_id>/", api.SealedEventView.as_view(), name="sealed-event"),
    path("sealed/events/<int:event_id>/open/", api.OpenPoolsView.as_view(), name="sealed-open"),
    path("sealed/events/<int:event_id>/pool/", api.PoolView.as_view(), name="sealed-pool"),
    path("sealed/events/<int:event_id>/catalogue/", api.CatalogueView.as_view(), name="sealed-catalogue"),
    path("sealed/events/<int:event_id>/paper-pool/", api.PaperPoolView.as_view(), name="sealed-paper-pool"),
    path("sealed/events/<int:event_id>/swap/", api.SwapView.as_view(), name="sealed-swap"),
    path("sealed/events/<int:event_id>/received-pool/", api.AnswerView.as_view(), name="sealed-answer"),
    path("sealed/pools/<int:pool_id>/assign/", api.AssignView.as_view(), name="sealed-assign"),
]

page_urlpatterns = [
    path("new/", pages.new_event, name="new"),
    path("<int:event_id>/", pages.event, name="event"),
    path("<int:event_id>/open/", pages.open_pools, name="open"),
    path("<int:event_id>/register-pool/", pages.register_pool, name="register-pool"),
    path("<int:event_id>/swap/", pages.swap, name="swap"),
    path("<int:event_id>/answer/", pages.answer, name="answer"),
    path("<int:event_id>/pools/<int:pool_id>/assign/", pages.assign, name="assign"),
]
