"""Pegboard's tables, split by resource."""

from tournaments.models.jobs import Job

__all__ = ["Job"]
