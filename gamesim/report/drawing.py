"""A chart's static picture: its Vega-Lite spec drawn as a JPEG, with no browser.

The one drawing function of the report pictures, used in the report's own process
(:func:`gamesim.report.charts.chart_picture`) and in the helper processes of
:mod:`gamesim.report.pictures`, so both give the same bytes. It imports only
vl-convert and Pillow: a helper process starts on it without pandas or Altair.

vl-convert lays the chart out and rasterises it (Vega in its embedded JavaScript engine,
then resvg) into a PNG; Pillow (libjpeg-turbo) encodes the JPEG. vl-convert's own JPEG
output costs about 45 ms more per chart for the same picture (26 charts of a QftNW report:
8.51 CPU-s against 7.33; ``benchmarks/bench_report.py --pictures``).

vl-convert carries Liberation Sans (Vega's default ``sans-serif``) in memory, but a system copy of
the same font, where there is one, comes first, and vl-convert opens and maps that file again for
every label it measures or draws (about 4,500 times per chart: system time and page faults that were
about 40% of a picture's CPU). :func:`picture_fonts` writes a font configuration without the system
copy; the helper processes of :mod:`gamesim.report.pictures` draw with it.
"""

from __future__ import annotations

import io
import math
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

__all__ = ["JPEG_QUALITY", "draw_jpeg", "picture_fonts", "FONT_ROOTS"]

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


#: Where vl-convert (fontdb) looks for a Linux machine's fonts when no fontconfig file names others;
#: the same folders as Debian's /etc/fonts/fonts.conf.
FONT_ROOTS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.fonts", "~/.local/share/fonts")

_FONT_FILES = (".ttf", ".ttc", ".otf", ".otc")
#: The faces vl-convert carries in memory: (family, style) as the font names them.
_CARRIED = {("Liberation Sans", s) for s in ("Regular", "Bold", "Italic", "Bold Italic")}


def _carried_by_vl_convert(path: Path) -> bool:
    if not path.name.startswith("LiberationSans-"):
        return False
    from PIL import ImageFont

    try:
        return tuple(ImageFont.FreeTypeFont(str(path), 10).getname()) in _CARRIED  # no search by name elsewhere
    except OSError:  # not a font Pillow can read: leave it in
        return False


def picture_fonts(folder: str | os.PathLike[str], *, roots: Sequence[str] | None = None) -> Path | None:
    """Write a fontconfig file for processes that draw pictures: the machine's fonts without the system
    copy of the font vl-convert carries in memory.

    vl-convert draws chart text in Liberation Sans, which it carries in memory; where the machine
    has its own copy, that copy wins and vl-convert opens and maps the file again for every label
    (about 4,500 times per chart). With the file this function writes (give it to a process as
    ``FONTCONFIG_FILE`` before it draws), vl-convert uses its own copy, and every other font of
    the machine (e.g. the Japanese font for rulebook names) is still there. The pictures look the
    same (same layout and size; the two copies differ only in the anti-aliasing of a few pixels).
    Only for vl-convert: WeasyPrint and the rest of the report keep the machine's configuration.

    Parameters
    ----------
    folder : path-like
        An existing folder, which must outlive the processes using the file: ``fonts.conf`` and a
        ``fonts/`` folder of links to the machine's font files are written there.
    roots : sequence of str, optional
        Folders searched for font files (``~`` expanded), recursively; default :data:`FONT_ROOTS`.

    Returns
    -------
    pathlib.Path or None
        The ``fonts.conf`` file; ``None`` (nothing written) where there is nothing to gain or it
        cannot be done: not Linux, ``FONTCONFIG_FILE`` already set (the user's choice stands), no
        system copy of Liberation Sans, or the links or the file cannot be written in ``folder``.

    Raises
    ------
    TypeError
        ``folder`` is not a path.
    FileNotFoundError
        ``folder`` does not exist.
    """
    if not isinstance(folder, (str, os.PathLike)):
        raise TypeError(f"folder = {folder!r}, must be a path")
    folder = Path(folder)
    if not folder.is_dir():
        raise FileNotFoundError(f"folder = {str(folder)!r} does not exist")
    if not sys.platform.startswith("linux") or os.environ.get("FONTCONFIG_FILE"):
        return None
    files: dict[str, Path] = {}  # real path -> the first path found to it
    for root in (FONT_ROOTS if roots is None else roots):
        base = Path(os.path.expanduser(root))
        if not base.is_dir():
            continue
        for dirpath, dirnames, names in os.walk(base):
            dirnames.sort()
            for name in sorted(names):
                if not name.lower().endswith(_FONT_FILES):
                    continue
                path = Path(dirpath) / name
                real = os.path.realpath(path)
                if real not in files and os.path.isfile(real):
                    files[real] = path
    kept = [(real, p) for real, p in files.items() if not _carried_by_vl_convert(p)]
    if len(kept) == len(files):
        return None
    links = folder / "fonts"
    try:
        links.mkdir(exist_ok=True)
        for i, (real, path) in enumerate(kept):
            os.symlink(real, links / f"{i:05d}-{path.name}")
    except OSError:
        return None
    conf = folder / "fonts.conf"
    try:
        conf.write_text('<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n'
                        f"<fontconfig>\n  <dir>{escape(str(links.resolve()))}</dir>\n</fontconfig>\n",
                        encoding="utf-8")
    except OSError:
        return None
    return conf
