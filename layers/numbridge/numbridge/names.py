"""What a player may be called: the one rule, for tokens of every kind."""

from __future__ import annotations

import re

PLAYER_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,32}$")


def check_player_name(name: str) -> str:
    if not PLAYER_NAME.match(name):
        raise ValueError(
            f"player name {name!r} must be 1-32 characters: letters, digits, '_', '.', '-'"
        )
    return name
