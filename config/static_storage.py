"""The static files' storage in production: whitenoise's compressed, hashed files, with each
file's address kept once worked out.

A page names 10 or so static files (``{% static %}``), and each address was worked out again at
every request (the manifest's lookup, the hashed name, ``urljoin`` and quoting: about 25 us in
all). An address depends only on the manifest, which a process reads once, so it is kept for
the process's life; ``collectstatic`` (which writes a new manifest) forgets what was kept."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._addresses: dict[str, str] = {}

    def url(self, name, force=False):
        if force:  # asked for the hashed name even with DEBUG on: as the parent does
            return super().url(name, force=True)
        address = self._addresses.get(name)
        if address is None:
            address = self._addresses[name] = super().url(name)
        return address

    def post_process(self, *args, **kwargs):
        self._addresses.clear()
        yield from super().post_process(*args, **kwargs)
        self._addresses.clear()
