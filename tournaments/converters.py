"""Path converters. ``num``: a whole number of at most 18 digits, for ids and numbers in URLs.

Django's ``int`` takes any number of digits, and a 30-digit id reached the database as a server
error; with ``num`` it is simply a page that does not exist (404). 18 digits stay below the
largest 64-bit integer, which every id fits in.
"""

from django.urls.converters import IntConverter

MAX_DIGITS = 18


class NumConverter(IntConverter):
    regex = f"[0-9]{{1,{MAX_DIGITS}}}"
