"""Writes: functions named ``<entity>_<action>`` with keyword-only arguments."""
