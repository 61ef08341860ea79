"""The rules desk's pages (the desk itself: :mod:`rulesdesk.views.desk`)."""
