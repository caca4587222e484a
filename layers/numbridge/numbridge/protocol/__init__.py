"""The WebSocket protocol: client actions, server frames, error codes."""

from numbridge.protocol.errors import ERROR_CODES, ErrorCode, ProtocolError
from numbridge.protocol.frames import ack_frame, error_frame, frame, validate_frame
from numbridge.protocol.requests import Request, read_request
from numbridge.protocol.wire import FrameRefused

__all__ = [
    "ERROR_CODES",
    "ErrorCode",
    "FrameRefused",
    "ProtocolError",
    "Request",
    "ack_frame",
    "error_frame",
    "frame",
    "read_request",
    "validate_frame",
]
