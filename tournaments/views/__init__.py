"""Server-rendered pages, split by audience."""
