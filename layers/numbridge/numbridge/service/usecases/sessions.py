"""$connect and $disconnect: a connection is bound to the player its token names.

These read the two fields they need straight from the event instead of
through the Powertools parser models: the connect and disconnect functions
then import neither pydantic nor the protocol (the events the local gateway
makes are checked against those models in its tests).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from numbridge.auth import AuthUnavailable, Identity, InvalidToken, verify_identity
from numbridge.caps import TooManyConnections
from numbridge.service.observability import count, logger
from numbridge.service.usecases.presence import announce

if TYPE_CHECKING:
    from numbridge.service.context import Services


def _connection_id(event: dict[str, Any]) -> str:
    connection_id = (event.get("requestContext") or {}).get("connectionId")
    if not isinstance(connection_id, str) or not connection_id:
        raise ValueError("not an API Gateway WebSocket event: no requestContext.connectionId")
    return connection_id


def on_connect(svc: Services, event: dict[str, Any]) -> dict[str, Any]:
    connection_id = _connection_id(event)
    query = event.get("queryStringParameters") or {}
    token = query.get("token")
    try:
        identity = verify_identity(token, svc.token_secret, svc.cognito)
    except InvalidToken as exc:
        logger.info("connection refused", extra={"reason": str(exc)})
        return {"statusCode": 401 if not token else 403, "body": "invalid or missing token"}
    except AuthUnavailable:
        logger.exception("tokens cannot be checked now")
        return {"statusCode": 503, "body": "sign-in is unavailable; retry shortly"}
    if (refusal := admit(svc, identity)) is not None:
        logger.info("connection refused", extra={"player": identity.player,
                                                  "reason": refusal["body"]})
        return refusal
    player = identity.player
    # batch=1: the events of one request in one game come as one frame (protocol.batching)
    if (full := _bind(svc, connection_id, identity,
                      batch=query.get("batch") == "1")) is not None:
        return full
    logger.append_keys(player=player)
    logger.info("connected", extra={"connection": connection_id})
    count("Connects")  # with Disconnects: the dashboard's connections
    _announce_if(svc, player, True, lambda: svc.connections.of_player(player) == [connection_id])
    return {"statusCode": 200}


def admit(svc: Services, identity: Identity) -> dict[str, Any] | None:
    """The refusal of a verified token by the player's record (``store.accounts``), or
    None: the name (folded) must be this player's, the account not disabled, an operator
    token of the record's generation (older ones were revoked), a pool token of the
    ``sub`` the record keeps (another pool user who took the name after a deletion is
    not this player). A player's first connect makes their record."""
    account = svc.accounts.ensure(identity.player, svc.clock())
    if account.name != identity.player:
        return {"statusCode": 403, "body": f"the name {identity.player!r} is "
                f"{account.name!r}'s (names are unique whatever their case)"}
    if account.disabled:
        return {"statusCode": 403, "body": "this account is disabled"}
    if identity.sub is None:
        if identity.generation < account.generation:
            return {"statusCode": 401, "body": "this token was revoked; sign in again"}
        return None
    if account.sub is None:
        account = svc.accounts.bind_sub(account.name, identity.sub)
    if account.sub != identity.sub:
        return {"statusCode": 403, "body": "this name belongs to another user of the pool"}
    return None


def _bind(svc: Services, connection_id: str, identity: Identity,
          batch: bool) -> dict[str, Any] | None:
    """Bind the connection to its player, or the 429 that refuses it (the player's
    connections are all open: ``caps.CONNECTIONS_PER_PLAYER``)."""
    player = identity.player
    try:
        svc.connections.add(connection_id, player, svc.clock(), batch=batch,
                            token_expires_at=identity.expires_at or None)
    except TooManyConnections as exc:
        logger.info("connection refused", extra={"player": player, "reason": str(exc)})
        return {"statusCode": 429, "body": str(exc)}
    return None


def on_disconnect(svc: Services, event: dict[str, Any]) -> dict[str, Any]:
    player = svc.connections.remove(_connection_id(event))
    code = (event.get("requestContext") or {}).get("disconnectStatusCode")
    logger.info("disconnected", extra={"player": player, "code": code})
    if player is not None:  # a connection that was bound (Connects counted it)
        count("Disconnects")
        _announce_if(svc, player, False, lambda: not svc.connections.of_player(player))
    return {"statusCode": 200}


def _announce_if(svc: Services, player: str, online: bool, first_or_last: Any) -> None:
    """Tell the opponents when the first device opens or the last closes. Presence is a
    courtesy: if it fails, the connection change stands (views carry ``online`` too)."""
    try:
        if first_or_last():
            announce(svc, player, online)
    except Exception:
        logger.exception("presence not announced", extra={"player": player})
