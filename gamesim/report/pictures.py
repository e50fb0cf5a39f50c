"""Draw a report's chart pictures in helper processes while the report goes on computing.

Drawing a chart's static picture (a JPEG, :func:`gamesim.report.drawing.draw_jpeg`) with vl-convert costs 0.1-0.6 s of CPU (Vega lays the chart out and
renders its text), about a third of a report's CPU time, and vl-convert draws one chart at a
time in the calling process. :class:`PictureDrawer` starts helper processes (``python -c``, reading
Vega-Lite specs as JSON lines on their standard input and answering with base64 JPEG lines), one per
core available up to :data:`MAX_HELPERS`, so the pictures are drawn side by side while the report
builds its tables and the next charts; each chart goes to the helper with the fewest charts
waiting. A helper runs the same function as the report's own process (:func:`~gamesim.report.drawing.draw_jpeg`),
and the helpers draw with the fonts of :func:`~gamesim.report.drawing.picture_fonts` (vl-convert's own
copy of Liberation Sans, not the machine's: about half the CPU per picture), so the pictures are the
same bytes whichever helper draws them and in whatever order.

The helper reads specs gamesim built (never a scenario's text as code) and exits when its
standard input closes, also when the report's process dies. If it cannot be started or fails,
every picture not yet drawn is drawn in the calling process (:func:`gamesim.report.charts.chart_picture`),
with that process's fonts: the same picture, its text anti-aliased from the machine's copy of the font.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
from typing import Any

from gamesim.core.machine import available_cores

__all__ = ["PictureDrawer", "MAX_HELPERS", "HELPERS_ENV", "default_helpers"]

#: Helper processes at most (a report has a few dozen charts; the kernel needs a core too).
MAX_HELPERS = 2

#: Environment variable that caps the helpers of each report (an integer 1..MAX_HELPERS). ``gamesim report``
#: sets it to 1 in the workers that render several reports side by side: their cores are shared with the
#: other reports and the sweeps, and each helper costs about 0.6 CPU-s to start (vl-convert's engine).
HELPERS_ENV = "GAMESIM_PICTURE_HELPERS"


def default_helpers() -> int:
    """Helpers a :class:`PictureDrawer` starts by default: the cores available, at most :data:`MAX_HELPERS`,
    at most :data:`HELPERS_ENV` where it is set.

    Raises
    ------
    ValueError
        If :data:`HELPERS_ENV` is set to anything but an integer 1..MAX_HELPERS (one line naming it).
    """
    n = max(1, min(MAX_HELPERS, available_cores()))
    raw = os.environ.get(HELPERS_ENV)
    if raw is None:
        return n
    if not raw.strip().isdigit() or not 1 <= int(raw) <= MAX_HELPERS:
        raise ValueError(f"{HELPERS_ENV} = {raw!r}, must be an integer 1..{MAX_HELPERS}")
    return min(n, int(raw))



_WORKER = r"""
import base64, json, sys
from gamesim.report.drawing import draw_jpeg
out = sys.stdout
for line in sys.stdin:
    req = json.loads(line)
    try:
        pic = base64.b64encode(draw_jpeg(req["spec"], req["scale"]))
        out.write(f"{req['id']} {pic.decode('ascii')}\n")
    except Exception as exc:  # the caller draws this one itself
        out.write(f"{req['id']} !{type(exc).__name__}\n")
    out.flush()
"""


class PictureDrawer:
    """Draw chart pictures in helper processes; a context manager (the helpers stop on exit).

    Parameters
    ----------
    n_helpers : int, optional
        Helper processes; default: :func:`default_helpers` (the cores available to this process, at
        most :data:`MAX_HELPERS`, at most :data:`HELPERS_ENV` where it is set).

    Raises
    ------
    TypeError
        If ``n_helpers`` is not an integer (a bool is refused).
    ValueError
        If ``n_helpers`` is outside 0..MAX_HELPERS, or is not given and :data:`HELPERS_ENV` holds a
        bad value.

    Methods
    -------
    submit(spec, scale) -> int
        Queue a Vega-Lite spec (a dict); returns its key at once.
    picture(key) -> str
        The base64 JPEG of ``key``, waiting for it (drawn here if its helper failed).
    """

    def __init__(self, n_helpers: int | None = None) -> None:
        self._specs: dict[int, tuple[dict[str, Any], float]] = {}
        self._done: dict[int, str | None] = {}
        self._cv = threading.Condition()
        self._owner: dict[int, _Helper] = {}  # the helper drawing each key
        self._helpers: list[_Helper] = []
        if n_helpers is not None and (isinstance(n_helpers, bool) or not isinstance(n_helpers, int)):
            raise TypeError(f"n_helpers = {n_helpers!r}, must be an integer 0..{MAX_HELPERS}")
        if n_helpers is not None and not 0 <= n_helpers <= MAX_HELPERS:
            raise ValueError(f"n_helpers = {n_helpers!r}, must be an integer 0..{MAX_HELPERS}")
        n = n_helpers if n_helpers is not None else default_helpers()
        self._fonts_dir: str | None = None
        env: dict[str, str] | None = None
        if n > 0:
            from gamesim.report.drawing import picture_fonts

            try:  # no temporary folder: the helpers draw with the machine's fonts, as this process does
                self._fonts_dir = tempfile.mkdtemp(prefix="gamesim-fonts-")
                conf = picture_fonts(self._fonts_dir)
            except OSError:
                conf = None
            if conf is None:
                self._drop_fonts()
            else:
                env = {**os.environ, "FONTCONFIG_FILE": str(conf)}
        for _ in range(n):
            try:
                self._helpers.append(_Helper(self, env))
            except OSError:
                break

    def __enter__(self) -> PictureDrawer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def submit(self, spec: dict[str, Any], scale: float = 1.25) -> int:
        """Queue ``spec`` (a Vega-Lite spec as a dict) to be drawn at ``scale``; returns its key."""
        key = len(self._specs)
        self._specs[key] = (spec, scale)
        with self._cv:
            alive = [h for h in self._helpers if not h.dead]
            helper = min(alive, key=lambda h: h.waiting) if alive else None
            if helper is not None:
                helper.waiting += 1
                self._owner[key] = helper
        if helper is not None:
            helper.queue.put((key, spec, scale))
        return key

    def picture(self, key: int) -> str:
        """The base64 JPEG of ``key`` (waits for its helper; draws it here if the helper failed on it)."""
        with self._cv:
            helper = self._owner.get(key)
            while key not in self._done and helper is not None and not helper.dead:
                self._cv.wait()
            got = self._done.get(key)
        if got is None:
            from gamesim.report.charts import chart_picture

            spec, scale = self._specs[key]
            got = base64.b64encode(chart_picture(spec, scale=scale)).decode("ascii")
        return got

    def close(self) -> None:
        """Stop the helpers (their standard input is closed; each is killed if it does not exit in 5 s) and
        remove their fonts folder."""
        for h in self._helpers:
            h.queue.put(None)
        for h in self._helpers:
            try:
                h.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                h.proc.kill()
                h.proc.wait()
        self._drop_fonts()

    def _drop_fonts(self) -> None:
        if self._fonts_dir is not None:
            shutil.rmtree(self._fonts_dir, ignore_errors=True)
            self._fonts_dir = None

    def _answer(self, helper: _Helper, key: int, pic: str | None) -> None:
        with self._cv:
            self._done[key] = pic
            helper.waiting -= 1
            self._cv.notify_all()

    def _fail(self, helper: _Helper) -> None:
        with self._cv:
            helper.dead = True
            self._cv.notify_all()


class _Helper:
    """One helper process of a :class:`PictureDrawer`, with its writer and reader threads."""

    def __init__(self, drawer: PictureDrawer, env: dict[str, str] | None = None) -> None:
        self.drawer = drawer
        self.waiting = 0
        self.dead = False
        self.queue: queue.Queue[tuple[int, dict[str, Any], float] | None] = queue.Queue()
        self.proc = subprocess.Popen([sys.executable, "-c", _WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, encoding="utf-8", env=env)
        threading.Thread(target=self._write, daemon=True, name="gamesim-picture-writer").start()
        threading.Thread(target=self._read, daemon=True, name="gamesim-picture-reader").start()

    def _write(self) -> None:
        assert self.proc.stdin is not None
        try:
            while (item := self.queue.get()) is not None:
                key, spec, scale = item
                req = {"id": key, "spec": spec, "scale": scale}
                self.proc.stdin.write(json.dumps(req, allow_nan=False) + "\n")
                self.proc.stdin.flush()
        except (OSError, ValueError):  # the helper is gone: what is left is drawn by the caller
            self.drawer._fail(self)
        finally:
            try:
                self.proc.stdin.close()
            except OSError:
                pass

    def _read(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                key, _, payload = line.rstrip("\n").partition(" ")
                self.drawer._answer(self, int(key), None if payload.startswith("!") else payload)
        except (OSError, ValueError):
            pass
        self.drawer._fail(self)
