"""What a bench that drives the handlers in-process (the integration harness) needs:
dummy AWS credentials, quiet Powertools, no metric lines, the harness importable."""

from __future__ import annotations

import os
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def use_integration_harness(log_level: str = "WARNING") -> None:
    os.environ.update(
        AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench", AWS_DEFAULT_REGION="us-east-1",
        POWERTOOLS_TRACE_DISABLED="true", POWERTOOLS_LOG_LEVEL=log_level,
        POWERTOOLS_METRICS_DISABLED="true",
    )
    warnings.filterwarnings("ignore", "No application metrics to publish")
    sys.path[:0] = [str(ROOT / "tests" / "integration"), str(ROOT / "tests")]
