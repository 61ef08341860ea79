"""HTML pages of the draft engine (events, player draft page, organiser dashboard)."""

page_urlpatterns: list = []
