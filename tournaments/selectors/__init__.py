"""Reads: functions that fetch what pages and the API show."""
