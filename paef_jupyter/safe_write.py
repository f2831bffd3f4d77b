"""Writing a user's file without ever losing it.

Every write goes to a fresh `mkstemp` file in the target's directory, is flushed to disk, takes
the target's mode, and only then replaces the target with one `os.replace`; the temp file is
removed on any failure (Ctrl-C included). Backups are created with `O_EXCL | O_NOFOLLOW`, so an
existing backup -- or a symlink planted at a predictable name -- is never written through.
"""

from __future__ import annotations

import os
import stat
import tempfile


class WriteError(Exception):
    """A file that cannot be written safely; the message is one line naming file and reason."""


def resolve_target(path: str) -> str:
    """The file a write to `path` must change: a symlink's target (the link itself stays)."""
    return os.path.realpath(path)


def same_file(a: str, b: str) -> bool:
    """True when `a` and `b` name one file under any spelling (`./x`, absolute, symlink, hard link)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def check_writable(path: str) -> None:
    """Refuse targets whose replacement would surprise the user: read-only or hard-linked files.

    The write-permission bits are checked rather than `os.access`, which says yes to root.
    """
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise WriteError(f"{path}: cannot write ({exc.strerror})") from None
    if not stat.S_ISREG(st.st_mode):
        raise WriteError(f"{path}: not a regular file")
    if not st.st_mode & 0o222 or not os.access(path, os.W_OK):
        raise WriteError(f"{path}: is read-only; nothing written")
    if st.st_nlink > 1:
        raise WriteError(f"{path}: has {st.st_nlink} hard links that a rewrite would split; nothing written (use -o)")


def create_backup(path: str, data: bytes) -> str:
    """Write `data` to the first free name of `PATH.orig`, `PATH.orig.1`, ... and return it.

    An existing backup is never replaced: the first one holds the pristine file.
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    mode = _mode_of(path)
    for n in range(10_000):
        name = f"{path}.orig" if n == 0 else f"{path}.orig.{n}"
        try:
            fd = os.open(name, flags, 0o600)
        except FileExistsError:
            continue
        except OSError as exc:
            raise WriteError(f"{name}: cannot create the backup ({exc.strerror}); nothing written") from None
        try:
            _write_synced(fd, data, name, mode)
        except BaseException as exc:
            _remove(name)
            if isinstance(exc, OSError):
                raise WriteError(f"{name}: cannot write the backup ({exc.strerror}); nothing written") from None
            raise
        _fsync_dir(os.path.dirname(os.path.abspath(name)))
        return name
    raise WriteError(f"{path}: too many backups ({path}.orig.*); nothing written")


def _write_synced(fd: int, data: bytes, name: str, mode: int) -> None:
    """Write `data` through `fd` and flush it to disk before anything renames or trusts it."""
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
        fh.flush()
        os.fsync(fh.fileno())
    os.chmod(name, mode)


def replace_file(path: str, data: bytes, before_replace=None) -> None:
    """Atomically replace the file `path` names (its target, if a symlink) by `data`, keeping its mode.

    `before_replace()` runs after the data is on disk and just before the rename: the last
    moment to refuse (e.g. the file changed meanwhile); the temp file is removed if it raises.
    """
    target = resolve_target(path)
    check_writable(target)
    directory = os.path.dirname(target) or "."
    mode = _mode_of(target)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".paef-tmp", dir=directory)
    except OSError as exc:
        raise WriteError(f"{path}: cannot write ({exc.strerror}: {directory})") from None
    try:
        _write_synced(fd, data, tmp, mode)
        _keep_owner(target, tmp)
        if before_replace is not None:
            before_replace()
        os.replace(tmp, target)
    except BaseException as exc:
        _remove(tmp)
        if isinstance(exc, OSError):
            raise WriteError(f"{path}: cannot write ({exc.strerror})") from None
        raise
    _fsync_dir(directory)


def _mode_of(path: str) -> int:
    """The permission bits to give a rewrite of `path`: its own, or the umask's default for a new file."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def _keep_owner(target: str, tmp: str) -> None:
    """Give the rewrite the target's owner and group (root fixing a user's file leaves it theirs)."""
    try:
        st = os.stat(target)
    except OSError:
        return
    if (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
        try:
            os.chown(tmp, st.st_uid, st.st_gid)
        except OSError:
            pass  # not permitted: the file stays the writer's, as any editor would leave it


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _fsync_dir(directory: str) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
