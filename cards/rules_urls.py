"""Routes of the judges' rules desk: the simulate API and its page."""

api_urlpatterns: list = []
page_urlpatterns: list = []
