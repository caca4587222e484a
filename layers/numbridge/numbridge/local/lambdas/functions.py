"""The Lambda functions of ``functions/<dir>/app.py``, loaded and invoked in-process."""

from __future__ import annotations

import asyncio
import importlib.util
import logging
import os
import sys
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path, PurePosixPath
from typing import Any

from numbridge.local.lambdas.lambda_context import (
    DEFAULT_MEMORY_MB,
    DEFAULT_TIMEOUT_S,
    LambdaContext,
)
from numbridge.values import frozen

log = logging.getLogger("numbridge.local")

Handler = Callable[[dict[str, Any], Any], Any]
FUNCTION_PREFIX = "numbridge-"


@frozen
class Function:
    """One Lambda function: its name (the ``functions/`` directory) and its handler."""

    name: str
    handler: Handler
    timeout_s: float = DEFAULT_TIMEOUT_S
    memory_mb: int = DEFAULT_MEMORY_MB


def repo_root() -> Path:
    """``NUMBRIDGE_ROOT``, else the checkout this package is in (``layers/numbridge/numbridge``)."""
    configured = os.environ.get("NUMBRIDGE_ROOT")
    if configured:
        return Path(configured).resolve()
    import numbridge

    return Path(numbridge.__file__).resolve().parent.parents[2]


def load_handler(root: Path, directory: str) -> Handler:
    """Import ``functions/<directory>/app.py`` under a module name of its own."""
    path = root / "functions" / directory / "app.py"
    if not path.is_file():
        raise FileNotFoundError(f"no Lambda function at {path}")
    module_name = f"numbridge_function_{directory.replace('-', '_')}"
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    handler = getattr(module, "lambda_handler", None)
    if not callable(handler):
        raise ImportError(f"{path} has no lambda_handler")
    return handler  # type: ignore[no-any-return]


def template_functions(root: Path) -> dict[str, Function]:
    """Every function of ``template.yaml``, by directory name, with its ``Timeout``."""
    from numbridge import sam_template

    path = root / "template.yaml"
    settings = sam_template.function_settings(path)
    functions: dict[str, Function] = {}
    for logical_id, code_uri in sam_template.function_dirs(path).items():
        name = PurePosixPath(code_uri).name
        timeout = settings[logical_id].get("Timeout", DEFAULT_TIMEOUT_S)
        memory = settings[logical_id].get("MemorySize", DEFAULT_MEMORY_MB)
        functions[name] = Function(name, load_handler(root, name), float(timeout), int(memory))
    return functions


def template_routes(root: Path) -> dict[str, str]:
    """Route key → function directory, read from ``template.yaml``."""
    from numbridge import sam_template

    return dict(sam_template.routes(root / "template.yaml"))


def route_functions(
    routes: Mapping[str, str], functions: Mapping[str, Function]
) -> dict[str, Function]:
    """Route key → the function it invokes."""
    missing = sorted({name for name in routes.values() if name not in functions})
    if missing:
        raise LookupError(f"routes name functions that were not loaded: {', '.join(missing)}")
    return {route: functions[name] for route, name in routes.items()}


class Invoker:
    """Runs handlers (blocking boto3 code) on worker threads, as Lambda would run them."""

    def __init__(self, max_workers: int = 16) -> None:
        self._executor = ThreadPoolExecutor(max_workers=max_workers, thread_name_prefix="lambda")

    async def invoke(self, function: Function, event: dict[str, Any]) -> Any:
        """The handler's return value; its exception propagates (and is logged)."""
        context = LambdaContext(
            FUNCTION_PREFIX + function.name,
            timeout_s=function.timeout_s,
            memory_limit_in_mb=function.memory_mb,
        )
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        try:
            return await loop.run_in_executor(self._executor, self._run, function, event, context)
        except Exception:
            log.exception("function %s failed (request %s)", function.name, context.aws_request_id)
            raise
        finally:
            elapsed = time.monotonic() - started
            if elapsed > function.timeout_s:
                log.warning(
                    "function %s ran %.1f s, longer than its %.0f s timeout",
                    function.name,
                    elapsed,
                    function.timeout_s,
                )

    @staticmethod
    def _run(function: Function, event: dict[str, Any], context: LambdaContext) -> Any:
        return function.handler(event, context)

    def shutdown(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=False)
