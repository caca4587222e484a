"""Players of a data directory from before accounts: the banner tells the host, once,
that each claims their name with a password at their first sign-in."""

from __future__ import annotations

from numbridge.store import keys
from numbridge.store.accounts import Accounts
from numbridge.store.port import Absent, ConflictError, Store


def claim_notice(store: Store) -> int:
    """How many players have games or ratings but no account, if the host has not been
    told yet (0 otherwise); told from now on."""
    waiting = Accounts(store).without_record()
    if not waiting:
        return 0
    try:
        store.put({"pk": keys.NOTICES, "sk": keys.CLAIM_NOTICE, "players": len(waiting)},
                  Absent())
    except ConflictError:
        return 0  # told at an earlier start
    return len(waiting)
