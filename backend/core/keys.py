"""Which SSH private keys a registered host may name: regular files of bounded size under the
configured key folder (MCSCOPE_SSH_KEY_DIR). Anything else (/etc/shadow, /dev/zero, a `../`
escape, a symlink out of the folder) would let a client make the worker use any file it can
read as a key."""

import stat
from pathlib import Path

from backend.core.config import settings


class KeyPathError(ValueError):
    pass


def check_key_path(raw: str) -> str:
    """The key's resolved absolute path, or KeyPathError saying what is wrong."""
    folder = settings.SSH_KEY_DIR.expanduser().resolve()
    path = (folder / Path(raw).expanduser()).resolve()
    if not path.is_relative_to(folder):
        raise KeyPathError(f"must be a file under the key folder {folder} (MCSCOPE_SSH_KEY_DIR)")
    try:
        info = path.stat()
    except OSError as exc:
        raise KeyPathError(f"{path} cannot be read: {exc.strerror}") from exc
    if not stat.S_ISREG(info.st_mode):
        raise KeyPathError(f"{path} is not a regular file")
    if info.st_size > settings.SSH_KEY_MAX_BYTES:
        raise KeyPathError(
            f"{path} has {info.st_size} bytes; an SSH private key has at most "
            f"{settings.SSH_KEY_MAX_BYTES}"
        )
    return str(path)
