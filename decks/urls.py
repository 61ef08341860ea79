"""Routes of the decks app: API (included under /api/) and pages (under /decks/)."""

api_urlpatterns: list = []
page_urlpatterns: list = []
