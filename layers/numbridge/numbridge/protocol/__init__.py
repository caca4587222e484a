"""The WebSocket protocol: client actions, server frames, error codes."""

from numbridge.protocol.actions import ClientAction, parse_action, peek
from numbridge.protocol.errors import ERROR_CODES, ErrorCode, ProtocolError
from numbridge.protocol.frames import ack_frame, error_frame, frame, validate_frame

__all__ = [
    "ERROR_CODES",
    "ClientAction",
    "ErrorCode",
    "ProtocolError",
    "ack_frame",
    "error_frame",
    "frame",
    "parse_action",
    "peek",
    "validate_frame",
]
