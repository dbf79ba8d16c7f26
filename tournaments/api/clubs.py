"""API: clubs, club nights, season standings and awards; skill ratings and their predictions.

- ``POST /clubs/`` ``{"name"}``: a new club; the caller is its director. ``GET /clubs/<id>/``
  its page's data; ``PATCH`` its settings (its directors).
- ``POST /clubs/<id>/nights/`` ``{"date"}``: a club night from the club's defaults, then
  played through the event API (entries, check-in, pairing, reports).
- ``GET /clubs/<id>/standings/?season=<year the season starts>``: the season's ``rows``.
- ``POST /clubs/<id>/awards/``: a 28/29 hand (checked by the engine) or a 9-0 night.
- ``GET /ratings/``: rating leaderboard (``club``, ``provisional``); ``GET
  /players/<id>/rating/``: a rating with its history; ``GET /ratings/predict/?player=&
  opponent=``: the chance ``player`` wins one game; ``GET /grass-roots/<season>/``: the
  national Grass Roots leaderboard.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.generics import GenericAPIView
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.api.serializers import StrictInput
from tournaments.api.serializers_events import EventDirectorSerializer
from tournaments.core.ratings import DEFAULT_PARAMS
from tournaments.errors import ServiceError
from tournaments.models import Club, ClubAward, Entry, NightCard, PlayerRating
from tournaments.selectors.access import club_get_for_director
from tournaments.selectors.clubs import (
    club_get,
    club_page,
    national_grass_roots,
    predict,
    rating_history,
    rating_leaderboard,
    season_table,
)
from tournaments.selectors.players import player_get
from tournaments.services.clubs import (
    CLUB_SETTINGS,
    club_award_record,
    club_create,
    club_night_create,
    club_update_settings,
)

BIG = 2**62


class ClubSettingsSerializer(StrictInput, serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", *CLUB_SETTINGS]
        read_only_fields = ["id"]


class NightSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    starts_on = serializers.DateField(allow_null=True)
    stage = serializers.CharField()


class ClubPageSerializer(serializers.Serializer):
    club = ClubSettingsSerializer()
    directors = serializers.ListField(child=serializers.CharField())
    members = serializers.IntegerField()
    seasons = serializers.ListField(child=serializers.IntegerField())
    nights = NightSerializer(many=True)
    rule = serializers.CharField()
    recognised = serializers.BooleanField(
        source="club.recognised",
        help_text="recognised by the ACC office: its nights reach the ratings and the national "
        "Grass Roots table (asked for at /clubs/<id>/recognition/request/)",
    )
    recognition = serializers.CharField(source="recognition.words")


class ClubListView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=ClubSettingsSerializer(many=True))
    def get(self, request):
        clubs = Club.objects.order_by("name")[:500]
        return Response(ClubSettingsSerializer(clubs, many=True).data)

    @extend_schema(request=ClubSettingsSerializer, responses={201: ClubPageSerializer})
    def post(self, request):
        body = ClubSettingsSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        club = club_create(user=request.user, **body.validated_data)
        return Response(ClubPageSerializer(club_page(club=club)).data, status=201)


class ClubDetailView(APIView):
    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    @extend_schema(responses=ClubPageSerializer)
    def get(self, request, club_id: int):
        return Response(ClubPageSerializer(club_page(club=club_get(club_id=club_id))).data)

    @extend_schema(request=ClubSettingsSerializer, responses=ClubPageSerializer)
    def patch(self, request, club_id: int):
        club = club_get_for_director(club_id=club_id, user=request.user)
        body = ClubSettingsSerializer(club, data=request.data, partial=True)
        body.is_valid(raise_exception=True)
        club = club_update_settings(club=club, user=request.user, **body.validated_data)
        return Response(ClubPageSerializer(club_page(club=club)).data)


class NightCreateSerializer(StrictInput):
    date = serializers.DateField()


class ClubNightView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=NightCreateSerializer, responses={201: EventDirectorSerializer})
    def post(self, request, club_id: int):
        club = club_get_for_director(club_id=club_id, user=request.user)
        body = NightCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        event = club_night_create(
            club=club, user=request.user, played_on=body.validated_data["date"]
        )
        return Response(EventDirectorSerializer(event).data, status=status.HTTP_201_CREATED)


class SeasonRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    grass_roots_points = serializers.IntegerField()
    nights = serializers.IntegerField()
    games_won = serializers.IntegerField()
    games_played = serializers.IntegerField()
    net_spread = serializers.IntegerField()
    dropped = serializers.ListField(child=serializers.IntegerField())


class SeasonSerializer(serializers.Serializer):
    club_id = serializers.IntegerField()
    season = serializers.IntegerField()
    rule = serializers.CharField()
    drop = serializers.IntegerField()
    nights = serializers.IntegerField()
    champion = serializers.CharField(allow_null=True)
    rows = SeasonRowSerializer(many=True)


class SeasonQuerySerializer(serializers.Serializer):
    season = serializers.IntegerField(min_value=1900, max_value=9999)


class ClubStandingsView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("season", int, required=True)],
        responses=SeasonSerializer,
    )
    def get(self, request, club_id: int):
        club = club_get(club_id=club_id)
        query = SeasonQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        table = season_table(club=club, season=query.validated_data["season"])
        rows = [{**vars(row), "name": name} for row, name in table.rows]
        data = {
            "club_id": club.pk, "season": table.season, "rule": table.rule, "drop": table.drop,
            "nights": table.nights, "champion": table.champion, "rows": rows,
        }  # fmt: skip
        return Response(SeasonSerializer(data).data)


class AwardSerializer(StrictInput, serializers.ModelSerializer):
    entry = serializers.IntegerField(write_only=True, min_value=1, max_value=BIG)

    class Meta:
        model = ClubAward
        fields = ["id", "entry", "player", "event", "season", "kind", "hand", "starter", "crib",
                  "score"]  # fmt: skip
        read_only_fields = ["id", "player", "event", "season", "score"]


class ClubAwardView(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(request=AwardSerializer, responses={201: AwardSerializer})
    def post(self, request, club_id: int):
        club = club_get_for_director(club_id=club_id, user=request.user)
        body = AwardSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        entry = Entry.objects.select_related("player", "event").filter(pk=data["entry"]).first()
        if entry is None:
            raise ServiceError("No such entry.", field="entry", code="no_entry")
        award = club_award_record(
            club=club,
            user=request.user,
            entry=entry,
            kind=data["kind"],
            hand=data.get("hand", ""),
            starter=data.get("starter", ""),
            crib=data.get("crib", False),
        )
        return Response(AwardSerializer(award).data, status=status.HTTP_201_CREATED)


class RatingSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="player.name")
    low = serializers.FloatField()
    high = serializers.FloatField()
    provisional = serializers.SerializerMethodField()

    class Meta:
        model = PlayerRating
        fields = ["player", "name", "mu", "sigma", "low", "high", "games", "provisional", "system"]

    def get_provisional(self, rating) -> bool:
        return rating.games < DEFAULT_PARAMS.provisional_games


class RatingQuerySerializer(serializers.Serializer):
    club = serializers.IntegerField(required=False, min_value=1, max_value=BIG)
    provisional = serializers.BooleanField(required=False, default=False)


class RatingLeaderboardView(GenericAPIView):
    permission_classes = [permissions.AllowAny]
    serializer_class = RatingSerializer
    queryset = PlayerRating.objects.none()

    @extend_schema(
        parameters=[
            OpenApiParameter("club", int, description="only this club's players"),
            OpenApiParameter("provisional", bool, description="include new players"),
        ],
        responses=RatingSerializer(many=True),
    )
    def get(self, request):
        query = RatingQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        club_id = query.validated_data.get("club")
        club = club_get(club_id=club_id) if club_id else None
        ratings = rating_leaderboard(club=club, provisional=query.validated_data["provisional"])
        page = self.paginate_queryset(ratings)
        return self.get_paginated_response(RatingSerializer(page, many=True).data)


class RatingPointSerializer(serializers.Serializer):
    event_id = serializers.IntegerField()
    played_on = serializers.DateField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    games = serializers.IntegerField()


class PlayerRatingSerializer(serializers.Serializer):
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    rating = RatingSerializer(allow_null=True)
    history = RatingPointSerializer(many=True)


class PlayerRatingView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(responses=PlayerRatingSerializer)
    def get(self, request, player_id: int):
        player = player_get(player_id=player_id)
        data = {
            "player_id": player.pk,
            "name": player.name,
            "rating": PlayerRating.objects.filter(player=player).first(),
            "history": rating_history(player=player),
        }
        return Response(PlayerRatingSerializer(data).data)


class PredictQuerySerializer(serializers.Serializer):
    player = serializers.IntegerField(min_value=1, max_value=BIG)
    opponent = serializers.IntegerField(min_value=1, max_value=BIG)


class PredictionSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player.pk")
    opponent = serializers.IntegerField(source="opponent.pk")
    probability = serializers.FloatField(help_text="the chance player wins one game")


class PredictView(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter("player", int, required=True),
            OpenApiParameter("opponent", int, required=True),
        ],
        responses=PredictionSerializer,
    )
    def get(self, request):
        query = PredictQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        prediction = predict(
            player=player_get(player_id=query.validated_data["player"]),
            opponent=player_get(player_id=query.validated_data["opponent"]),
        )
        return Response(PredictionSerializer(prediction).data)


class GrassRootsRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(allow_null=True)
    grass_roots_points = serializers.IntegerField()
    nights = serializers.IntegerField()
    games_won = serializers.IntegerField()
    net_spread = serializers.IntegerField()


class GrassRootsView(GenericAPIView):
    permission_classes = [permissions.AllowAny]
    serializer_class = GrassRootsRowSerializer
    queryset = NightCard.objects.none()

    @extend_schema(responses=GrassRootsRowSerializer(many=True))
    def get(self, request, season: int):
        if not 1900 <= season <= 9999:
            raise ServiceError("A season is a year.", field="season", code="invalid")
        page = self.paginate_queryset(national_grass_roots(season=season))
        return self.get_paginated_response(GrassRootsRowSerializer(page, many=True).data)
