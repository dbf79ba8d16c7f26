"""The REST API under /api/v1/, split by resource."""
