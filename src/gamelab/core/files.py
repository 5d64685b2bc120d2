"""Writing files so that no reader ever sees half of one: temporary file in the same folder + rename.

``temporary_sibling(path)`` yields a temporary path next to `path` (created with the permissions
an ordinary new file would get under the process umask, not mkstemp's private 0600); on success
it is renamed over `path`, on any error it is deleted.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


@contextlib.contextmanager
def temporary_sibling(path: Path) -> Iterator[Path]:
    """A temporary file beside `path`, renamed onto it when the block succeeds.

    An OSError names `path` (what the caller asked for), never the temporary file.
    """
    path = Path(path)
    tmp = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".gl-", suffix=".tmp")
        os.close(fd)
        os.chmod(tmp, _new_file_mode())
        yield Path(tmp)
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from exc
    except BaseException:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise


#: File types an output option may name, by extension.
FIGURE_SUFFIXES = (".png", ".svg", ".pdf")


def check_output_path(path: str | Path, suffixes: tuple[str, ...], option: str = "--out") -> Path:
    """`path` as a Path if a file of that name can be written there; else a ValueError.

    Called before a long computation starts, so a run never ends with nowhere to put its result:
    the extension must be one of `suffixes` (the file type follows it), the path must not be a
    folder, its nearest existing ancestor must be a writable folder and its name short enough.
    """
    path = Path(path)
    if not str(path) or path.name in ("", ".", ".."):
        raise ValueError(f"{option} needs a file name, got {str(path)!r}")
    if path.suffix.lower() not in suffixes:
        raise ValueError(
            f"{option} {path}: the file type follows the extension; use one of {', '.join(suffixes)}"
        )
    if path.is_dir():
        raise ValueError(f"{option} {path} is a folder; give a file name")
    _check_creatable(path, path.parent, option, "file or folder")
    return path


def _check_creatable(path: Path, start: Path, option: str, what: str) -> None:
    """`path` can be created: its nearest existing ancestor from `start` up is a writable folder
    and no part of it is longer than the file system allows (`what`: the kind of name, for the
    message)."""
    ancestor = start
    while not ancestor.exists() and ancestor != ancestor.parent:
        ancestor = ancestor.parent
    if not ancestor.is_dir():
        raise ValueError(f"{option} {path}: {ancestor} is not a folder")
    if not os.access(ancestor, os.W_OK | os.X_OK):
        raise ValueError(f"{option} {path}: the folder {ancestor} is not writable")
    try:
        name_max = os.pathconf(ancestor, "PC_NAME_MAX")
    except (OSError, ValueError, AttributeError):
        name_max = 255
    if max((len(part.encode()) for part in path.parts), default=0) > name_max:
        raise ValueError(f"{option}: a {what} name is longer than {name_max} bytes")


def check_output_folder(path: str | Path, option: str = "--out") -> Path:
    """`path` as a Path if it is (or can be made) a writable folder; else a ValueError."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ValueError(f"{option} {path} is a file; give a folder")
    _check_creatable(path, path, option, "folder")
    return path


def write_bytes_atomic(path: Path, data: bytes) -> None:
    with temporary_sibling(path) as tmp, open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())


def write_text_atomic(path: Path, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


#: Largest text file a command reads by default (a word list, a decision tree); a record or a
#: pack declares its own cap. Beyond it the file is a mistake (``/dev/zero``, a disk image), and
#: it is refused before it fills memory.
MAX_TEXT_FILE = 64 * 1024 * 1024


def read_text_file(path: str | Path, what: str, max_bytes: int = MAX_TEXT_FILE) -> str:
    """The UTF-8 text of the regular file `path`, or a ValueError naming `what` and `path`.

    Only a regular file is read: a device (``/dev/zero``) never ends, and a FIFO would wait
    for a writer for ever (it is opened without waiting, then refused). A file over `max_bytes`
    is refused with the cap in the message.
    """
    import stat

    path = Path(path)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ValueError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ValueError(f"cannot read {what} {path}: it is a folder")
        if not stat.S_ISREG(info.st_mode):
            raise ValueError(f"cannot read {what} {path}: not a regular file")
        if info.st_size > max_bytes:
            raise ValueError(
                f"{what} {path} is {info.st_size:,} bytes; at most {max_bytes:,} are read"
            )
        chunks, size = [], 0
        while size <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise ValueError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > max_bytes:
        raise ValueError(
            f"{what} {path} is over {max_bytes:,} bytes; at most {max_bytes:,} are read"
        )
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(
            f"cannot read {what} {path}: not UTF-8 text (byte {exc.start:,} is {exc.object[exc.start]:#04x})"
        ) from None
