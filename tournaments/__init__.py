"""Pegboard's Django side: clubs, players, events, games, results, standings, playoffs, rulings.

Rules and algorithms live in pure code (``scoring`` for cribbage, ``tournaments.core`` for
pairing, standings and brackets); this app loads rows, calls that code and saves.
"""
