"""The WebSocket protocol: client actions, server frames, error codes."""

from numbridge.protocol.actions import ClientAction, parse_action, peek, read_request
from numbridge.protocol.errors import ERROR_CODES, ErrorCode, ProtocolError
from numbridge.protocol.frames import ack_frame, error_frame, frame, validate_frame
from numbridge.protocol.wire import FrameRefused

__all__ = [
    "ERROR_CODES",
    "ClientAction",
    "ErrorCode",
    "FrameRefused",
    "ProtocolError",
    "ack_frame",
    "error_frame",
    "frame",
    "parse_action",
    "peek",
    "read_request",
    "validate_frame",
]
