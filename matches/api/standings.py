"""``POST /api/standings/compute``: standings for any Swiss history, no event needed.

Judges and other tools check a result with it. Open to anyone: it reads and stores nothing.
"""

from __future__ import annotations

from django.utils.translation import gettext
from drf_spectacular.utils import OpenApiExample, extend_schema, extend_schema_view
from rest_framework import exceptions, serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from draftsite.bounds import INTEGER_MAX
from draftsite.parsers import INVALID_TEXT, JSON_TOO_DEEP
from matches import error_codes
from matches.swiss import InvalidHistory, compute_standings, parse_history

MAX_PLAYERS = 5000
MAX_MATCHES = 60000


class HistoryMatchSchema(serializers.Serializer):
    round = serializers.IntegerField(min_value=1, max_value=INTEGER_MAX)
    a = serializers.CharField()
    b = serializers.CharField(required=False, help_text="Absent for a bye.")
    a_wins = serializers.IntegerField(min_value=0, max_value=2, required=False, default=0)
    b_wins = serializers.IntegerField(min_value=0, max_value=2, required=False, default=0)
    draws = serializers.IntegerField(min_value=0, max_value=3, required=False, default=0)
    bye = serializers.BooleanField(required=False, default=False)


class HistorySchema(serializers.Serializer):
    players = serializers.ListField(child=serializers.CharField())
    matches = HistoryMatchSchema(many=True)
    dropped = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=INTEGER_MAX),
        required=False,
        help_text="A dropped player -> the last round they played.",
    )


class StandingSchema(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    match_points = serializers.IntegerField()
    record = serializers.CharField(help_text="wins-losses-draws; a bye is a win")
    omw = serializers.FloatField(help_text="Opponents' match-win percentage, 4 decimals")
    gw = serializers.FloatField(help_text="Game-win percentage, 4 decimals")
    ogw = serializers.FloatField(help_text="Opponents' game-win percentage, 4 decimals")


class StandingsSchema(serializers.Serializer):
    standings = StandingSchema(many=True)


class InvalidHistoryErrorSchema(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    match = serializers.JSONField(required=False, allow_null=True)
    index = serializers.IntegerField(required=False, allow_null=True)


class InvalidHistorySchema(serializers.Serializer):
    detail = serializers.CharField()
    errors = InvalidHistoryErrorSchema(many=True)
    match = serializers.JSONField(required=False, allow_null=True)


def _longer(value, limit: int) -> bool:
    """A list past ``limit`` (anything else is parse_history's to refuse, as invalid_history)."""
    return isinstance(value, list) and len(value) > limit


def invalid_history_response(message: str, match=None, index=None) -> Response:
    error = {"code": error_codes.INVALID_HISTORY, "message": message, "match": match, "index": index}
    return Response({"detail": message, "errors": [error], "match": match}, status=400)


class StandingsComputeView(APIView):
    permission_classes = [AllowAny]
    authentication_classes = []  # stateless: no session, so no CSRF token needed

    @extend_schema(
        request=HistorySchema,
        responses={200: StandingsSchema, 400: InvalidHistorySchema},
        summary="Standings by MTR tiebreakers for any Swiss history",
        examples=[
            OpenApiExample(
                "Two matches, a drop",
                request_only=True,
                value={
                    "players": ["Ana", "Bo", "Cy", "Di"],
                    "matches": [
                        {"round": 1, "a": "Ana", "b": "Bo", "a_wins": 2, "b_wins": 1, "draws": 0},
                        {"round": 1, "a": "Cy", "bye": True},
                    ],
                    "dropped": {"Di": 1},
                },
            )
        ],
    )
    def post(self, request):
        try:
            data = request.data
        except exceptions.ParseError as exc:
            if exc.get_codes() in (JSON_TOO_DEEP, INVALID_TEXT):
                raise  # the site-wide codes of hostile bodies (draftsite.parsers)
            return invalid_history_response(gettext("The body is not JSON: %(detail)s") % {"detail": exc.detail})
        if isinstance(data, dict) and (
            _longer(data.get("players"), MAX_PLAYERS) or _longer(data.get("matches"), MAX_MATCHES)
        ):
            return invalid_history_response(
                gettext("At most %(players)s players and %(matches)s matches in one request.")
                % {"players": MAX_PLAYERS, "matches": MAX_MATCHES}
            )
        try:
            history = parse_history(data)
        except InvalidHistory as exc:
            return invalid_history_response(exc.message, exc.match, exc.index)
        rows = compute_standings(history.players, history.results)
        return Response({"standings": [row.as_contract() for row in rows]})


@extend_schema_view(post=extend_schema(exclude=True))
class StandingsComputeSlashView(StandingsComputeView):
    """The same endpoint with a trailing slash (kept out of the schema)."""
