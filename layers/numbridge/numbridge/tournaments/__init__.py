"""Tournaments: the kinds' pairing and scoring (pure), and the club's schedule.

Pure modules (no I/O, no clock, no randomness): :mod:`.results` (shared types: ``Played``,
``Round``), :mod:`.arena`, :mod:`.swiss`, :mod:`.round_robin`, :mod:`.standings`; the
rules as the club plays them are in docs/tournaments-pairing.md. ``swiss.Round`` is
``results.Round`` (one class, re-exported).
"""
