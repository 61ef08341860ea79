"""HTML pages of the draft engine: events, the player's draft page, the organiser's
dashboard and pod page, the open board and the spectator view (routes: drafts/urls.py)."""
