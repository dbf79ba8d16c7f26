"""Paging through lists: ``?limit=`` and ``?offset=`` within stated bounds.

DRF's own limit/offset paging passes any whole number to the database, so ``?offset=`` beyond
64 bits was a server error. Here a value that is not a whole number in range is a 400 that names
the parameter, and the schema states the ranges.
"""

from __future__ import annotations

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination

MAX_LIMIT = 1000
MAX_OFFSET = 1_000_000_000


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    default_limit = 100
    max_limit = MAX_LIMIT

    def _bounded(self, request, name: str, default: int, low: int, high: int) -> int:
        raw = request.query_params.get(name)
        if raw is None or raw == "":
            return default
        if not (raw.isascii() and raw.isdigit()) or not low <= int(raw) <= high:
            raise ValidationError(
                {name: [f"Give a whole number from {low} to {high}."]}, code="out_of_range"
            )
        return int(raw)

    def get_limit(self, request) -> int:
        return self._bounded(request, self.limit_query_param, self.default_limit, 1, MAX_LIMIT)

    def get_offset(self, request) -> int:
        return self._bounded(request, self.offset_query_param, 0, 0, MAX_OFFSET)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        bounds = {
            self.limit_query_param: {"minimum": 1, "maximum": MAX_LIMIT},
            self.offset_query_param: {"minimum": 0, "maximum": MAX_OFFSET},
        }
        for parameter in parameters:
            parameter["schema"].update(bounds.get(parameter["name"], {}))
        return parameters
