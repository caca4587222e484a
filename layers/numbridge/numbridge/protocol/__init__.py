"""The WebSocket protocol: client actions, server frames, error codes.

Every frame the server sends is defined once (:mod:`.answers`, and the rules'
events rendered by :mod:`.render`), in plain Python; the models derived from them
(:mod:`.models`) are for the tests' checks and the AsyncAPI document, and are
imported only there.
"""

from numbridge.protocol.errors import ERROR_CODES, ErrorCode, ProtocolError
from numbridge.protocol.render import ack_frame, error_frame
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
    "read_request",
]
