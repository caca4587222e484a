"""The local runtime's data directory: the database file and the token secret."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

SECRET_FILE = "secret"


def data_dir(given: str | os.PathLike[str] | None = None) -> Path:
    """``given``, else the user's data directory for numbridge; created (mode 0700) if missing."""
    if given is None:
        from platformdirs import user_data_dir

        given = user_data_dir("numbridge")
    path = Path(given).expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True, mode=0o700)
    return path


def token_secret(directory: Path) -> str:
    """``TOKEN_SECRET`` if set, else ``<directory>/secret`` (created, mode 0600, if missing)."""
    configured = os.environ.get("TOKEN_SECRET")
    if configured:
        return configured
    path = directory / SECRET_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        secret = path.read_text(encoding="utf-8").strip()
        if not secret:
            raise ValueError(f"{path} is empty: delete it to make a new secret") from None
        return secret
    secret = secrets.token_urlsafe(32)
    with os.fdopen(fd, "w", encoding="utf-8") as stream:
        stream.write(secret + "\n")
    return secret
