"""Routes of the penalties app: API (included under /api/) and pages (under /penalties/)."""

api_urlpatterns: list = []
page_urlpatterns: list = []
