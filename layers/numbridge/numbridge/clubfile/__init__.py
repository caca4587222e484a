"""A whole club in one JSON-lines file, to move it between stores (``numbridge club``).

The file is a header (format and version, the sections it holds), one line per
domain record — a game with its events, archive record and rematch offer; a
player's ratings and games list; an open proposal; a recent request receipt; a
player's account; a tournament whole (its players, rounds, pairings, games in
play) —
and an end line that counts them. It is read and written through the store
modules (``numbridge.store``), never as raw rows, so it does not depend on how
either store lays the records out. Each kind of record is one
:class:`~numbridge.clubfile.sections.Section` in ``SECTIONS``: adding a kind
is one more entry there (as the accounts were).
"""
