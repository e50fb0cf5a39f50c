"""A chart's static picture: its Vega-Lite spec drawn as a JPEG, with no browser.

The one drawing function of the report pictures, used in the report's own process
(:func:`gamesim.report.charts.chart_picture`) and in the helper processes of
:mod:`gamesim.report.pictures`, so both give the same bytes. It imports only
vl-convert and Pillow: a helper process starts on it without pandas or Altair.

vl-convert lays the chart out and rasterises it (Vega in its embedded JavaScript engine,
then resvg) into a PNG; Pillow (libjpeg-turbo) encodes the JPEG. vl-convert's own JPEG
output costs about 45 ms more per chart for the same picture (26 charts of a QftNW report:
8.51 CPU-s against 7.33; ``benchmarks/bench_report.py --pictures``).
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping
from typing import Any

__all__ = ["JPEG_QUALITY", "draw_jpeg"]

#: Quality of the static pictures (JPEG). WeasyPrint embeds a JPEG as it is, where it decodes a PNG and
#: encodes it again with its transparency apart (gacha_game's PDF: 4.2-5.1 s with PNGs, 2.1 s with JPEGs,
#: and half the bytes); at 92 a printed chart shows no difference at 150 dpi.
JPEG_QUALITY = 92


def draw_jpeg(spec: Mapping[str, Any], scale: float = 1.25) -> bytes:
    """Draw a Vega-Lite spec as a JPEG on a white background.

    Parameters
    ----------
    spec : Mapping
        A Vega-Lite spec (JSON-like: dicts, lists, str, numbers), as ``chart.to_dict()`` gives it.
    scale : float, default 1.25
        Pixels per CSS pixel of the chart (finite, > 0).

    Returns
    -------
    bytes
        The JPEG file: quality :data:`JPEG_QUALITY`, 4:2:0 chroma subsampling (Pillow's default),
        transparent parts white.

    Raises
    ------
    TypeError
        ``scale`` is not a real number (a bool is refused).
    ValueError
        ``scale`` is not finite and > 0; or vl-convert cannot draw the spec (its message).
    """
    if isinstance(scale, bool) or not isinstance(scale, (int, float)):
        raise TypeError(f"scale = {scale!r}, must be a number > 0")
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"scale = {scale!r}, must be a finite number > 0")
    import vl_convert as vlc
    from PIL import Image

    png = vlc.vegalite_to_png(dict(spec), scale=float(scale))
    with Image.open(io.BytesIO(png)) as im:
        if im.mode in ("RGBA", "LA") or (im.mode == "P" and "transparency" in im.info):
            rgba = im.convert("RGBA")
            flat = Image.new("RGB", rgba.size, (255, 255, 255))
            flat.paste(rgba, mask=rgba.getchannel("A"))
        else:
            flat = im.convert("RGB")
    out = io.BytesIO()
    flat.save(out, "JPEG", quality=JPEG_QUALITY)
    return out.getvalue()
