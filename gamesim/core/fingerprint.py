"""A fingerprint of gamesim's own code and built-in data, for cache keys.

Chunks of a sweep are reused only when everything that made them is the same: the
scenario, its data files, and the code that simulated them. ``__version__`` alone
does not say the last (it stays ``0.1.0`` through many edits of a working tree), so
the key carries the SHA-256 of every Python source and built-in data file of the
package as well: an edited simulator or a pasted card list never answers from old
chunks. Reading the ~150 files costs a few milliseconds, once per process.
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

__all__ = ["code_fingerprint"]

_PACKAGE = Path(__file__).resolve().parent.parent
#: Files whose content can change a simulated number (notebooks and docs cannot).
_SUFFIXES = (".py", ".toml", ".json", ".csv")


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """SHA-256 over the relative path and bytes of every source and data file of the package.

    Returns
    -------
    str
        64 hex digits; the same on every machine for the same files (paths are
        taken relative to the package and sorted).
    """
    h = hashlib.sha256()
    for path in sorted(p for p in _PACKAGE.rglob("*") if p.suffix in _SUFFIXES and "__pycache__" not in p.parts):
        h.update(path.relative_to(_PACKAGE).as_posix().encode())
        h.update(b"\0")
        h.update(path.read_bytes())
        h.update(b"\0")
    return h.hexdigest()
