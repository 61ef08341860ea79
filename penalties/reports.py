"""Downloadable reports (shared by the API and the pages)."""

from django.http import HttpResponse

from events.models import Event
from penalties import selectors


def csv_response(event: Event) -> HttpResponse:
    response = HttpResponse(selectors.event_csv(event), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="event-{event.pk}-penalties.csv"'
    return response
