"""The local runtime's data directory: the database file, the token secret, the lock.

It holds every solution and hand and the secret that signs every token, so it
is the server's own: a directory owned by the server's user, mode 0700
(tightened when it is looser); the database and its ``-wal``/``-shm`` files
0600; the secret a regular file (never a symbolic link) owned by the server's
user, mode 0600. Anything else is refused with :class:`DataDirError`, which
says what to fix: whoever else could write there could plant a secret and mint
tokens for anyone, or plant a club to import. A lock file (``flock``) keeps a
second server off a directory that one already serves.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import secrets
import stat
from pathlib import Path

SECRET_FILE = "secret"
LOCK_FILE = "lock"
DATABASE_FILE = "numbridge.db"
DATABASE_COMPANIONS = ("-wal", "-shm", "-journal")
PRIVATE_DIR = 0o700
PRIVATE_FILE = 0o600
OTHERS = 0o077  # any permission for group or others
WRITABLE_BY_OTHERS = 0o022


class DataDirError(ValueError):
    """The data directory, or a file in it, is not the server's own; says what to fix."""


def _owner(st: os.stat_result) -> str:
    try:
        import pwd

        return f"{pwd.getpwuid(st.st_uid).pw_name} (uid {st.st_uid})"
    except (ImportError, KeyError):
        return f"uid {st.st_uid}"


def _mine(path: Path, st: os.stat_result, what: str) -> None:
    if st.st_uid != os.geteuid():
        raise DataDirError(
            f"{path} ({what}) belongs to {_owner(st)}, not to the user running the server "
            f"(uid {os.geteuid()}): run the server as its owner, or choose a --data-dir of "
            "your own")


def data_dir(given: str | os.PathLike[str] | None = None) -> Path:
    """``given``, else the user's data directory for numbridge; created mode 0700, or checked
    to be ours and tightened to 0700."""
    if given is None:
        from platformdirs import user_data_dir

        given = user_data_dir("numbridge")
    path = Path(given).expanduser().resolve()
    path.mkdir(parents=True, exist_ok=True, mode=PRIVATE_DIR)
    return own_directory(path)


def own_directory(path: Path) -> Path:
    """``path`` if it is a directory of the server's user, tightened to 0700."""
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode):
        raise DataDirError(f"{path} is not a directory: choose another --data-dir")
    _mine(path, st, "the data directory")
    if stat.S_IMODE(st.st_mode) & OTHERS:
        try:
            os.chmod(path, PRIVATE_DIR)
        except OSError as exc:
            raise DataDirError(
                f"{path} (the data directory) is open to group or others "
                f"(mode {stat.S_IMODE(st.st_mode):04o}) and cannot be tightened to 0700 "
                f"({exc.strerror}): chmod 700 {path}") from exc
    return path


def own_file(path: Path, what: str) -> os.stat_result:
    """The status of ``path`` if it is a regular file of the server's user that nobody else
    may write; never follows a symbolic link."""
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        raise DataDirError(f"{path} ({what}) is a symbolic link: replace it with a file "
                           "of your own, or delete it")
    if not stat.S_ISREG(st.st_mode):
        raise DataDirError(f"{path} ({what}) is not a regular file: delete it")
    _mine(path, st, what)
    if stat.S_IMODE(st.st_mode) & WRITABLE_BY_OTHERS:
        raise DataDirError(f"{path} ({what}) is writable by group or others (mode "
                           f"{stat.S_IMODE(st.st_mode):04o}): chmod go-w {path}")
    return st


def database_file(directory: Path) -> Path:
    """``numbridge.db`` in ``directory``, created mode 0600 if missing (SQLite gives its
    ``-wal`` and ``-shm`` files the database's mode), and with its companions made 0600."""
    path = directory / DATABASE_FILE
    with contextlib.suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW,
                         PRIVATE_FILE))
    for file in (path, *(path.with_name(path.name + end) for end in DATABASE_COMPANIONS)):
        try:
            st = os.lstat(file)
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(st.st_mode) or not stat.S_ISREG(st.st_mode):
            raise DataDirError(f"{file} (the database) is not a regular file: move it away")
        _mine(file, st, "the database")
        if stat.S_IMODE(st.st_mode) & OTHERS:
            os.chmod(file, PRIVATE_FILE, follow_symlinks=False)
    return path


def token_secret(directory: Path) -> str:
    """``TOKEN_SECRET`` if set, else ``<directory>/secret`` (created, mode 0600, if missing;
    refused unless a regular file of ours, mode 0600)."""
    configured = os.environ.get("TOKEN_SECRET")
    if configured:
        return configured
    path = directory / SECRET_FILE
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, PRIVATE_FILE)
    except FileExistsError:
        return _read_secret(path)
    secret = secrets.token_urlsafe(32)
    with os.fdopen(fd, "w", encoding="utf-8") as stream:
        stream.write(secret + "\n")
    return secret


def _read_secret(path: Path) -> str:
    try:
        # No following a link, no blocking on a FIFO; what was opened is what is checked.
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise DataDirError(f"{path} (the token secret) is a symbolic link: delete it, "
                               "and a new secret is made") from exc
        raise
    try:
        _check_secret(path, os.fstat(fd))
        with os.fdopen(fd, "rb") as stream:
            fd = -1
            secret = stream.read().decode("utf-8").strip()
    finally:
        if fd >= 0:
            os.close(fd)
    if not secret:
        raise DataDirError(f"{path} is empty: delete it to make a new secret")
    return secret


def _check_secret(path: Path, st: os.stat_result) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise DataDirError(f"{path} (the token secret) is not a regular file: delete it, "
                           "and a new secret is made")
    _mine(path, st, "the token secret")
    if stat.S_IMODE(st.st_mode) & OTHERS:
        raise DataDirError(
            f"{path} (the token secret) is open to group or others (mode "
            f"{stat.S_IMODE(st.st_mode):04o}): whoever read it can sign tokens; delete "
            "it (a new secret is made, and every token so far is void), or chmod 600 it "
            "if nobody else could have read it")


class DataDirLock:
    """An exclusive ``flock`` on ``<directory>/lock`` for as long as the server runs; the
    file names the pid that holds it. A lock file that is not the server's own (another
    user's, a link, not a regular file) is refused saying so — never taken for a
    server at work ("in use"), never an ``OSError`` without a word of what to fix."""

    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK_FILE
        fd = self._open()
        try:
            st = os.fstat(fd)
            self._check(st)
            if stat.S_IMODE(st.st_mode) & OTHERS:
                os.fchmod(fd, PRIVATE_FILE)
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise DataDirError(
                f"{directory} is in use by pid {holder} (another numbridge serve): stop it, "
                "or choose another --data-dir") from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd: int | None = fd

    def _open(self) -> int:
        """The lock file, created 0600 if missing; never through a link, never blocking
        on a FIFO."""
        try:
            return os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK,
                           PRIVATE_FILE)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                raise DataDirError(f"{self.path} (the lock file) is a symbolic link: "
                                   f"delete it (rm {self.path})") from None
            with contextlib.suppress(OSError):
                self._check(os.lstat(self.path))  # another user's: say so
            raise DataDirError(f"{self.path} (the lock file) cannot be opened "
                               f"({exc.strerror}): delete it (rm {self.path}) if no "
                               "numbridge serve is running") from None

    def _check(self, st: os.stat_result) -> None:
        if not stat.S_ISREG(st.st_mode):
            raise DataDirError(f"{self.path} (the lock file) is not a regular file: "
                               f"delete it (rm {self.path})")
        if st.st_uid != os.geteuid():
            raise DataDirError(
                f"{self.path} (the lock file) belongs to {_owner(st)}, not to the user "
                f"running the server (uid {os.geteuid()}): someone else put it there; "
                f"delete it (rm {self.path}) and check who else can write to the data "
                "directory")

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the file ends the lock
            self._fd = None

    def __enter__(self) -> DataDirLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
