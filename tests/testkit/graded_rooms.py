"""A club whose room deals graded boards (rooms.yaml's ``grades``), for the tests of
graded deals and of the stock of boards: one room, 9x9 regular at 24-30 clues (26 by
default), every board between hidden singles and beyond, so that asking ``beyond`` is
an ask the dealer aims at (and the service stocks)."""

from numbridge.store import keys

GRADED_ROOM = """\
  - id: graded
    title: Graded
    variants:
      bridge: {size: 9, clues: {min: 24, max: 30, default: 26}, take_price: 1}
    move_ms: 45000
    game_ms: 900000
    highlighting: true
    blocks: [regular]
    grades: [hidden_single, beyond]
"""
GRADED = "rooms:\n" + GRADED_ROOM
# The stock that asking ``beyond`` in that room at its default clues is dealt from.
BEYOND = keys.stock_setting(9, "regular", 26, ["beyond"])
