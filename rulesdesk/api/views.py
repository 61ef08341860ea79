"""``POST /api/rules/simulate``: run rules-core actions on a catalogue card, step by step.

A public reference tool for judges (no authentication). The work is done by
:mod:`rulesdesk.simulation`; :mod:`rulesdesk.api.serializers` describe the contract for the
OpenAPI schema.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from rulesdesk import simulation
from rulesdesk.api.serializers import ErrorSerializer, SimulateRequestSerializer, SimulateResponseSerializer


class SimulateView(APIView):
    """Run actions on a card and see, step by step, what the rules say.

    Each step has an outcome (``ok``, ``no_effect`` when the rules say nothing happens,
    ``illegal`` when a player may not do it), the rule cited, the events and the resulting
    state. A step that did not happen leaves the state unchanged for the next one.
    ``meld`` names its ``partner`` card: the two become one permanent (``melded_with``), and
    when it leaves the battlefield the partner goes too (``also``).
    Errors: ``unknown_card`` (with ``suggestions``), ``invalid_action``, ``too_many_actions``.
    """

    permission_classes = [AllowAny]
    authentication_classes: list = []  # public and stateless: no session, so no CSRF

    @extend_schema(
        operation_id="rules_simulate",
        request=SimulateRequestSerializer,
        responses={200: SimulateResponseSerializer, 400: ErrorSerializer},
        examples=[
            OpenApiExample(
                "Disguise",
                value={
                    "card": "Experiment Twelve",
                    "zone": "hand",
                    "actions": [
                        {"action": "cast", "face_down": "disguise"},
                        {"action": "resolve"},
                        {"action": "turn_face_up", "via": "disguise"},
                    ],
                },
                request_only=True,
            ),
            OpenApiExample(
                "Meld",
                value={
                    "card": "Bruna, the Fading Light",
                    "zone": "battlefield",
                    "actions": [
                        {"action": "meld", "partner": "Gisela, the Broken Blade"},
                        {"action": "move", "to": "graveyard"},
                    ],
                },
                request_only=True,
            ),
        ],
        tags=["rules"],
    )
    def post(self, request):
        return Response(simulation.simulate(request.data))


@extend_schema_view(post=extend_schema(exclude=True))
class SimulateSlashView(SimulateView):
    """The same endpoint with a trailing slash (kept out of the schema)."""
