"""The draft engine's REST API (mounted under /api/ by drafts/urls.py): drafted events, seating,
pod control, seats, picks and logs (``views``); an event's registrations and staff are the
events API (``events.api``).

Views translate HTTP only: they look up what is asked for with the caller's permission
(``events.access``, ``drafts.access``), validate the body (``serializers``), call one service and answer what the
selectors say that caller may see.
"""
