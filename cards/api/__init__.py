"""The card catalogue's REST API (serializers.py: shapes; views.py: endpoints)."""
