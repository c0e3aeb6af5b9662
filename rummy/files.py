"""Writing files safely: atomically, never through a symbolic link, never over a file that is to be kept.

The one home for writing output files; every command that writes uses it.

- ``Folder(path, create=False)`` opens a folder and keeps it open: every
  read, write and lock goes through that handle (``dir_fd``), so the folder
  cannot be swapped for a link while a run writes into it. A folder that is
  itself a symbolic link is refused (links higher up the path are followed,
  as everywhere).
- ``Folder.write(name, data, replace=...)`` writes the bytes to a temporary
  file in the same folder (``.NAME.XXXXXXXX.tmp``, created with ``O_EXCL |
  O_NOFOLLOW``), flushes them to disk, then puts the file in place in one
  step, so a reader sees the old file or the whole new one, never a part.
  ``replace=False`` (the default) never overwrites anything: the name is
  taken with a hard link, which fails if it exists (on a file system
  without hard links: a check, then ``os.replace``). ``replace=True``
  replaces a regular file with ``os.replace``. Either way a symbolic link at
  the name is refused, never written through nor replaced.
- ``Folder.read(name, limit)``: the bytes of a regular file (no link
  followed), at most ``limit`` of them.
- ``Folder.lock(name)``: an exclusive ``flock`` on a lock file in the folder,
  for read-merge-write of a shared file (``rummy generate``'s index).
- ``write_atomic(path, data, replace=True)``: one file, the same way.
- ``replace_unchanged(path, data, unchanged, what)``: one file replaced only if ``unchanged()`` says it
  still is what the run read, under a ``flock`` on the folder itself (no lock file left behind): a
  read-change-write of one file (``rummy game add``) never loses another run's change.

Refusals are ``RummyError`` (one line, exit 2 at the command line) naming
the path: ``UnsafePath`` for a link or a thing that is not a regular file,
``FileKept`` for a file that ``replace=False`` leaves alone.
"""

from __future__ import annotations

import errno
import os
import stat
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

from .errors import RummyError

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
# Errors of os.link on a file system without hard links.
_NO_HARD_LINKS = {errno.EPERM, errno.EXDEV, errno.EMLINK, errno.ENOSYS, getattr(errno, "ENOTSUP", -1),
                  getattr(errno, "EOPNOTSUPP", -1)}
# How long Folder.lock waits for another process before giving up.
LOCK_WAIT_SECONDS = 60.0


class UnsafePath(RummyError):
    """A symbolic link, or not a regular file, where a file is to be read or written."""


class FileKept(RummyError):
    """A file exists at a name that is never overwritten."""


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


class Folder:
    """An open folder that files are read from and written to, not through links."""

    def __init__(self, path: str | Path, create: bool = False) -> None:
        self.path = Path(path)
        if os.path.islink(self.path):
            raise UnsafePath(f"{self.path}: a symbolic link; rummy never writes through one (give the folder itself)")
        if create:
            try:
                self.path.mkdir(parents=True, exist_ok=True)
            except FileExistsError as error:
                where = error.filename or self.path
                raise RummyError(
                    f"{self.path}: cannot create the folder ({where} exists and is not a folder)") from None
            except OSError as error:
                raise RummyError(f"{self.path}: cannot create the folder ({_reason(error)})") from None
        try:
            self.fd = os.open(self.path, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC)
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise UnsafePath(
                    f"{self.path}: a symbolic link; rummy never writes through one (give the folder itself)") from None
            if error.errno == errno.ENOTDIR:
                raise RummyError(f"{self.path}: a file, not a folder") from None
            if error.errno == errno.ENOENT:
                raise RummyError(f"{self.path}: no such folder") from None
            raise RummyError(f"{self.path}: cannot open the folder ({_reason(error)})") from None

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1  # closed

    def __enter__(self) -> Folder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------ queries
    def names(self) -> list[str]:
        return os.listdir(self.fd)

    def kind(self, name: str) -> str | None:
        """What is at ``name``: "file", "link", "other", or None (nothing)."""
        try:
            mode = os.stat(name, dir_fd=self.fd, follow_symlinks=False).st_mode
        except FileNotFoundError:
            return None
        if stat.S_ISLNK(mode):
            return "link"
        return "file" if stat.S_ISREG(mode) else "other"

    def _refuse_unsafe(self, name: str) -> None:
        kind = self.kind(name)
        if kind == "link":
            raise UnsafePath(f"{self.path / name}: a symbolic link; rummy never writes through one nor replaces it")
        if kind == "other":
            raise UnsafePath(f"{self.path / name}: not a regular file")

    # ------------------------------------------------------------ reading
    def read(self, name: str, limit: int) -> bytes | None:
        """The bytes of regular file ``name`` (None if there is none); a link, a folder or more than
        ``limit`` bytes is refused."""
        try:
            fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW | _CLOEXEC, dir_fd=self.fd)
        except FileNotFoundError:
            return None
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise UnsafePath(f"{self.path / name}: a symbolic link; rummy never reads through one") from None
            raise RummyError(f"{self.path / name}: cannot read ({_reason(error)})") from None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise UnsafePath(f"{self.path / name}: not a regular file")
            if info.st_size > limit:
                raise RummyError(f"{self.path / name}: larger than {limit} bytes")
            data = read_at_most(fd, limit)
            if len(data) > limit:
                raise RummyError(f"{self.path / name}: larger than {limit} bytes")
            return data
        except OSError as error:
            raise RummyError(f"{self.path / name}: cannot read ({_reason(error)})") from None
        finally:
            os.close(fd)

    # ------------------------------------------------------------ writing
    def write(self, name: str, data: bytes | str, replace: bool = False) -> tuple[int, int]:
        """Put ``data`` at ``name`` in one step (see the module's text); the file's (device, inode)."""
        if isinstance(data, str):
            data = data.encode("utf-8")
        if os.sep in name or name in ("", ".", ".."):
            raise ValueError(f"not a file name: {name!r}")
        self._refuse_unsafe(name)
        if not replace and self.kind(name) is not None:
            raise FileKept(f"{self.path / name}: exists; not overwritten")
        temporary, identity = self._temporary(name, data)
        try:
            if replace:
                self._refuse_unsafe(name)
                os.replace(temporary, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
            else:
                self._take(temporary, name)
        except OSError as error:
            raise RummyError(f"{self.path / name}: cannot write ({_reason(error)})") from None
        finally:
            with suppress(FileNotFoundError):  # not found: replaced into place
                os.unlink(temporary, dir_fd=self.fd)
        return identity

    def _take(self, temporary: str, name: str) -> None:
        """Give the temporary file the name ``name`` unless something has it."""
        try:
            os.link(temporary, name, src_dir_fd=self.fd, dst_dir_fd=self.fd, follow_symlinks=False)
            return
        except FileExistsError:
            self._refuse_unsafe(name)
            raise FileKept(f"{self.path / name}: exists; not overwritten") from None
        except OSError as error:
            if error.errno not in _NO_HARD_LINKS:
                raise
        # No hard links here: a check, then the atomic replace.
        if self.kind(name) is not None:
            self._refuse_unsafe(name)
            raise FileKept(f"{self.path / name}: exists; not overwritten")
        os.replace(temporary, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)

    def _temporary(self, name: str, data: bytes) -> tuple[str, tuple[int, int]]:
        """A new hidden file in the folder holding ``data``, on disk: its name and (device, inode)."""
        for _ in range(100):
            temporary = f".{name}.{os.urandom(4).hex()}.tmp"
            try:
                fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC, 0o666,
                             dir_fd=self.fd)
            except FileExistsError:
                continue
            except OSError as error:
                raise RummyError(f"{self.path / name}: cannot write ({_reason(error)})") from None
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
                os.fsync(fd)
                info = os.fstat(fd)
            except BaseException as error:
                os.close(fd)
                os.unlink(temporary, dir_fd=self.fd)
                if isinstance(error, OSError):
                    raise RummyError(f"{self.path / name}: cannot write ({_reason(error)})") from None
                raise
            os.close(fd)
            return temporary, (info.st_dev, info.st_ino)
        raise RummyError(f"{self.path / name}: cannot make a temporary file beside it")

    def remove_own(self, name: str, identity: tuple[int, int]) -> None:
        """Remove ``name`` if it is still the file ``write`` put there (its returned identity)."""
        try:
            info = os.stat(name, dir_fd=self.fd, follow_symlinks=False)
            if (info.st_dev, info.st_ino) == identity:
                os.unlink(name, dir_fd=self.fd)
        except OSError:
            pass

    # ------------------------------------------------------------ locking
    @contextmanager
    def lock(self, name: str, wait: float = LOCK_WAIT_SECONDS) -> Iterator[None]:
        """Hold an exclusive lock on the lock file ``name`` (created if missing, never removed)."""
        import fcntl

        try:
            fd = os.open(name, os.O_RDWR | os.O_CREAT | _NOFOLLOW | _CLOEXEC, 0o666, dir_fd=self.fd)
        except OSError as error:
            if error.errno == errno.ELOOP:
                raise UnsafePath(f"{self.path / name}: a symbolic link; rummy never writes through one") from None
            raise RummyError(f"{self.path / name}: cannot open the lock file ({_reason(error)})") from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise UnsafePath(f"{self.path / name}: not a regular file")
            deadline = time.monotonic() + wait
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() >= deadline:
                        raise RummyError(f"{self.path / name}: locked by another process for over {wait:g} s") from None
                    time.sleep(0.01)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


def read_at_most(fd: int, limit: int) -> bytes:
    """What ``fd`` holds, but never more than ``limit + 1`` bytes: one more than allowed tells a
    caller it is too much."""
    chunks: list[bytes] = []
    size = 0
    while size <= limit:
        chunk = os.read(fd, min(1 << 16, limit + 1 - size))
        if not chunk:
            break
        chunks.append(chunk)
        size += len(chunk)
    return b"".join(chunks)


def replace_unchanged(path: str | Path, data: bytes | str, unchanged: Callable[[], bool], what: str) -> None:
    """Replace the regular file ``path`` with ``data`` in one step (as ``write_atomic``), only if
    ``unchanged()`` still says yes, both under an exclusive lock on the folder itself: two runs that read,
    change and write one file (``rummy game add`` twice at once) never lose one's change unseen. Changed:
    a ``RummyError`` naming ``what`` changed, nothing written."""
    import fcntl

    path = Path(path)
    with Folder(path.parent if str(path.parent) else ".") as folder:
        deadline = time.monotonic() + LOCK_WAIT_SECONDS
        while True:
            try:
                fcntl.flock(folder.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise RummyError(f"{path}: locked by another process for over {LOCK_WAIT_SECONDS:g} s") from None
                time.sleep(0.01)
        try:
            if not unchanged():
                raise RummyError(f"{path}: {what}")
            folder.write(path.name, data, replace=True)
        finally:
            fcntl.flock(folder.fd, fcntl.LOCK_UN)


def write_atomic(path: str | Path, data: bytes | str, replace: bool = True) -> None:
    """Write one file in one step, never through a link (see the module's text)."""
    path = Path(path)
    with Folder(path.parent if str(path.parent) else ".") as folder:
        folder.write(path.name, data, replace=replace)
