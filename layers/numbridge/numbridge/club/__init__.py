"""The club around the table: rooms, proposals, ratings — pure parts.

- :mod:`numbridge.club.rooms`: rooms from configuration (``rooms.yaml``,
  ``$ROOMS_CONFIG``), their public listing, and game options from a proposal;
- :mod:`numbridge.club.proposals`: the choices of a proposal, seating;
- :mod:`numbridge.club.ratings`: Glicko-2.
"""
