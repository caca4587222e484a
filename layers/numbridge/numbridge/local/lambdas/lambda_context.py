"""A stand-in for the ``context`` object Lambda passes to a handler."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from numbridge.local.apigateway import ids
from numbridge.local.lambdas.aws_events import ACCOUNT, REGION

DEFAULT_TIMEOUT_S = 30.0
DEFAULT_MEMORY_MB = 512


@dataclass
class LambdaContext:
    """The attributes and method Powertools and handlers read from Lambda's context."""

    function_name: str
    timeout_s: float = DEFAULT_TIMEOUT_S
    memory_limit_in_mb: int = DEFAULT_MEMORY_MB
    function_version: str = "$LATEST"
    aws_request_id: str = field(default_factory=ids.invocation_id)
    _deadline: float = field(default=0.0, repr=False)

    def __post_init__(self) -> None:
        if not self._deadline:
            self._deadline = time.monotonic() + self.timeout_s

    @property
    def invoked_function_arn(self) -> str:
        return f"arn:aws:lambda:{REGION}:{ACCOUNT}:function:{self.function_name}"

    @property
    def log_group_name(self) -> str:
        return f"/aws/lambda/{self.function_name}"

    @property
    def log_stream_name(self) -> str:
        return time.strftime("%Y/%m/%d/[$LATEST]local", time.gmtime())

    def get_remaining_time_in_millis(self) -> int:
        return max(0, int((self._deadline - time.monotonic()) * 1000))
