"""Card catalogue routes: the JSON API and the HTML pages."""

from django.urls import path

from cards.api import views as api
from cards.views import pages

api_urlpatterns = [
    path("cards/", api.CardListView.as_view(), name="api-card-list"),
    path("cards/<int:pk>/", api.CardDetailView.as_view(), name="api-card-detail"),
    path("checklists/", api.ChecklistListView.as_view(), name="api-checklist-list"),
]

page_urlpatterns = [
    path("", pages.card_search, name="search"),
    path("<int:pk>/", pages.card_detail, name="detail"),
]
