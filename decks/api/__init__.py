"""The decks REST API (views split by audience: players.py, judges.py)."""
