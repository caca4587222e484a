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
from numbridge.cognito import InvalidCognitoToken, check_cognito_name
from numbridge.names import RESERVED_PREFIXES, is_reserved, may_be_a_look_alike, same_player
from numbridge.service.observability import count, logger
from numbridge.service.usecases.presence import announce, away_later
from numbridge.store.accounts import NotThisPoolUser

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
    if len((event.get("multiValueQueryStringParameters") or {}).get("token") or ()) > 1:
        # Which one counts would be the reader's choice (the last here, the first elsewhere).
        logger.info("connection refused", extra={"reason": "more than one token"})
        return {"statusCode": 400, "body": "one token parameter at most"}
    try:
        identity = verify_identity(token, svc.token_secret, svc.cognito)
    except InvalidToken as exc:
        logger.info("connection refused", extra={"reason": str(exc)})
        return {"statusCode": 401 if not token else 403, "body": "invalid or missing token"}
    except AuthUnavailable:
        logger.exception("tokens cannot be checked now")
        return {"statusCode": 503, "body": "sign-in is unavailable; retry shortly"}
    try:
        admit(svc, identity)
    except Refused as exc:
        logger.info("connection refused", extra={"player": identity.player,
                                                  "reason": str(exc)})
        return {"statusCode": exc.status, "body": str(exc)}
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


class Refused(Exception):
    """``$connect`` refused by the player's record: the status API Gateway answers."""

    status = 403


class Revoked(Refused):
    status = 401


def admit(svc: Services, identity: Identity) -> None:
    """:class:`Refused` unless the player's record (``store.accounts``) admits a verified
    token: the name (folded) must be this player's, the account not disabled, an
    operator token of the record's generation (older ones were revoked), a pool token
    of the ``sub`` the record was made with. A player's first connect makes their
    record; a pool user's first connect makes it with its ``sub``, and never binds one
    to a record made otherwise (an operator's or local player's) or to a name with
    games from before records: another pool user who registers the name after a
    deletion, or a name an operator's player holds, is not that player."""
    now = svc.clock()
    if identity.sub is None:
        account = svc.accounts.ensure(identity.player, now)
    else:
        try:
            account = svc.accounts.ensure_pool(identity.player, identity.sub, now)
        except NotThisPoolUser as exc:
            raise Refused(str(exc)) from None
    if account.name != identity.player:
        raise Refused(f"the name {identity.player!r} is {account.name!r}'s "
                      "(names are unique whatever their case)")
    if account.disabled:
        raise Refused("this account is disabled")
    if identity.sub is None:
        if identity.generation < account.generation:
            raise Revoked("this token was revoked; sign in again")
        return
    if account.sub is None:
        raise Refused("this name is a player's who does not sign in through the pool")
    if account.sub != identity.sub:
        raise Refused("this name belongs to another user of the pool")


class NameTaken(ValueError):
    """A name that is a player's already, in any case or spelling that folds alike."""


def check_sign_up(svc: Services, name: str) -> None:
    """Whether a pool user may sign up as ``name``: a player's name
    (:class:`~numbridge.cognito.InvalidCognitoToken` otherwise), and nobody's yet — not
    the club's ``bot-`` names, no record of it or of a look-alike after folding, and no
    games from before records under that spelling (:class:`NameTaken`). Each message
    starts with the local sign-in's code, ``bad_name:`` or ``name_taken:`` (Cognito
    shows it to the user)."""
    if is_reserved(name):
        raise NameTaken(f"name_taken: player names starting {'/'.join(RESERVED_PREFIXES)} "
                        "are the club's own")
    try:
        player = check_cognito_name(name)
    except InvalidCognitoToken as exc:
        # A look-alike of a player's name (a Cyrillic letter in a Latin one) is taken.
        if may_be_a_look_alike(name) and (holder := svc.accounts.get(name)) is not None:
            raise NameTaken(f"name_taken: the name {name!r} looks the same as "
                            f"{holder.name!r}'s; choose another") from None
        raise InvalidCognitoToken(f"bad_name: {exc}") from None
    if (account := svc.accounts.get(player)) is not None:
        alike = "" if same_player(account.name, player) else ", whose name looks the same"
        raise NameTaken(f"name_taken: the name {player!r} is taken (by {account.name!r}"
                        f"{alike}); choose another")
    if svc.accounts.has_history(player):
        raise NameTaken(f"name_taken: the name {player!r} is taken; choose another")


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
    removed = svc.connections.remove_all(_connection_id(event))
    player = removed.player
    if removed.seek is not None:  # the seek ended with its connection
        tell_lobby(svc, {"hints": [{"seeks": removed.seek.room}]})
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
        if not first_or_last():
            return
    except Exception:
        logger.exception("presence not announced", extra={"player": player})
        return
    if online:
        announce(svc, player, online)
    else:
        away_later(svc, player)
    try:  # the lobby's count of players online
        svc.online.change(player, 1 if online else -1)
    except Exception:
        logger.exception("online count not changed", extra={"player": player})
        return
    tell_lobby(svc, {"online": True})


def tell_lobby(svc: Services, message: dict[str, Any]) -> None:
    """A hint for the lobby's fan-out; a courtesy too (the next page has it right)."""
    try:
        svc.lobby.publish(message)
    except Exception:
        logger.exception("lobby not told", extra={"lobby": message})
