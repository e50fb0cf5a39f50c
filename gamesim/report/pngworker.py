"""Draw a report's chart pictures in a second process while the report goes on computing.

Drawing a chart's static PNG with vl-convert costs 0.2-1 s of CPU (Vega lays the chart out and
renders its text), about half of a report's notebook time, and vl-convert draws one chart at a
time in the calling process. :class:`PngDrawer` starts one helper process (``python -c``, reading
Vega-Lite specs as JSON lines on its standard input and answering with base64 PNG lines), so on a
machine with a free core the pictures are drawn while the report builds its tables and the next
charts. The pictures are the same bytes vl-convert draws in the report's own process.

The helper reads specs gamesim built (never a scenario's text as code) and exits when its
standard input closes, also when the report's process dies. If it cannot be started or fails,
every picture not yet drawn is drawn in the calling process (:func:`gamesim.report.charts.chart_png`).
"""

from __future__ import annotations

import base64
import json
import queue
import subprocess
import sys
import threading
from typing import Any

__all__ = ["PngDrawer"]

_WORKER = r"""
import base64, json, sys
import vl_convert as vlc
out = sys.stdout
for line in sys.stdin:
    req = json.loads(line)
    try:
        png = base64.b64encode(vlc.vegalite_to_png(req["spec"], scale=req["scale"])).decode("ascii")
        out.write(f"{req['id']} {png}\n")
    except Exception as exc:  # the caller draws this one itself
        out.write(f"{req['id']} !{type(exc).__name__}\n")
    out.flush()
"""


class PngDrawer:
    """Draw chart PNGs in a helper process; a context manager (the helper stops on exit).

    Methods
    -------
    submit(spec, scale) -> int
        Queue a Vega-Lite spec (a dict); returns its key at once.
    png(key) -> str
        The base64 PNG of ``key``, waiting for it (drawn here if the helper failed).
    """

    def __init__(self) -> None:
        self._specs: dict[int, tuple[dict[str, Any], float]] = {}
        self._done: dict[int, str | None] = {}
        self._cv = threading.Condition()
        self._dead = False
        self._queue: queue.Queue[tuple[int, dict[str, Any], float] | None] = queue.Queue()
        try:
            self._proc: subprocess.Popen[str] | None = subprocess.Popen(
                [sys.executable, "-c", _WORKER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, encoding="utf-8")
        except OSError:
            self._proc, self._dead = None, True
            return
        threading.Thread(target=self._write, daemon=True, name="gamesim-png-writer").start()
        threading.Thread(target=self._read, daemon=True, name="gamesim-png-reader").start()

    def __enter__(self) -> PngDrawer:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def submit(self, spec: dict[str, Any], scale: float = 1.25) -> int:
        """Queue ``spec`` (a Vega-Lite spec as a dict) to be drawn at ``scale``; returns its key."""
        key = len(self._specs)
        self._specs[key] = (spec, scale)
        if not self._dead:
            self._queue.put((key, spec, scale))
        return key

    def png(self, key: int) -> str:
        """The base64 PNG of ``key`` (waits for the helper; draws it here if the helper failed on it)."""
        with self._cv:
            while key not in self._done and not self._dead:
                self._cv.wait()
            got = self._done.get(key)
        if got is None:
            from gamesim.report.charts import chart_png

            spec, scale = self._specs[key]
            got = base64.b64encode(chart_png(spec, scale=scale)).decode("ascii")
        return got

    def close(self) -> None:
        """Stop the helper (its standard input is closed; it is killed if it does not exit in 5 s)."""
        self._queue.put(None)
        if self._proc is not None:
            try:
                self._proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()

    def _write(self) -> None:
        assert self._proc is not None and self._proc.stdin is not None
        try:
            while (item := self._queue.get()) is not None:
                key, spec, scale = item
                self._proc.stdin.write(json.dumps({"id": key, "spec": spec, "scale": scale}, allow_nan=False) + "\n")
                self._proc.stdin.flush()
        except (OSError, ValueError):  # the helper is gone: what is left is drawn here
            self._fail()
        finally:
            try:
                self._proc.stdin.close()
            except OSError:
                pass

    def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        try:
            for line in self._proc.stdout:
                key, _, payload = line.rstrip("\n").partition(" ")
                with self._cv:
                    self._done[int(key)] = None if payload.startswith("!") else payload
                    self._cv.notify_all()
        except (OSError, ValueError):
            pass
        self._fail()

    def _fail(self) -> None:
        with self._cv:
            self._dead = True
            self._cv.notify_all()
