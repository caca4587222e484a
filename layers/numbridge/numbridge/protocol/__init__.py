"""The WebSocket protocol: client actions, server frames, error codes.

Rendering frames (:mod:`.render`) is plain Python; the models of the frames the
server sends (:mod:`.frames`, :mod:`.event_frames`) are for the tests' checks and
the AsyncAPI document, and are imported only there.
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
