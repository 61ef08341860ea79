"""The draft engine's REST API (mounted under /api/ by drafts/urls.py): events, registrations,
seating, pod control, seats, picks and logs (``views``), and event staff (``staff``).

Views translate HTTP only: they look up what is asked for with the caller's permission
(``drafts.access``), validate the body (``serializers``), call one service and answer what the
selectors say that caller may see.
"""
