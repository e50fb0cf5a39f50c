"""Chart pictures (JPEG) drawn in helper processes: the same bytes from any helper in any order, the same
picture as drawn in the report's own process, and the helpers' fonts."""

from __future__ import annotations

import base64
import io
import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from gamesim.report.charts import _PENDING, chart_html, chart_picture, fill_pictures
from gamesim.report.drawing import draw_jpeg
from gamesim.report.pictures import PictureDrawer


def _spec(values: list[int]) -> dict:
    return {"$schema": "https://vega.github.io/schema/vega-lite/v5.json",
            "data": {"values": [{"x": i, "y": v} for i, v in enumerate(values)]},
            "mark": "bar", "encoding": {"x": {"field": "x", "type": "ordinal"}, "y": {"field": "y", "type": "quantitative"}}}


def _same_picture(a: str | bytes, b: str | bytes) -> None:
    """The same picture: same size, and no more than anti-aliasing apart (the helpers draw the text
    with vl-convert's own copy of the font, this process with the machine's)."""
    from PIL import Image

    pics = [Image.open(io.BytesIO(base64.b64decode(p) if isinstance(p, str) else p)).convert("L") for p in (a, b)]
    assert pics[0].size == pics[1].size
    diff = np.abs(np.asarray(pics[0], float) - np.asarray(pics[1], float))
    assert diff.mean() < 1.0 and (diff > 64).mean() < 0.002, (diff.mean(), (diff > 64).mean())


SPECS = [_spec([1, 2, 3]), _spec([5, 1]), _spec([2, 2, 2, 9]), _spec([7]), _spec([3, 1, 4, 1, 5])]


@pytest.fixture(scope="module")
def one_helper_pictures() -> list[str]:
    with PictureDrawer(1) as drawer:
        return [drawer.picture(drawer.submit(s)) for s in SPECS]


@pytest.mark.parametrize("n_helpers", [1, 2])
def test_helpers_draw_the_same_bytes_in_any_order(n_helpers, one_helper_pictures):
    with PictureDrawer(n_helpers) as drawer:
        keys = [drawer.submit(s) for s in reversed(SPECS)][::-1]
        got = [drawer.picture(k) for k in reversed(keys)][::-1]
        assert len(drawer._helpers) == n_helpers and {id(drawer._owner[k]) for k in keys} == {
            id(h) for h in drawer._helpers}  # every helper got work
    assert got == one_helper_pictures
    for pic, spec in zip(got, SPECS):
        _same_picture(pic, chart_picture(spec))


def test_a_helper_that_cannot_start_leaves_the_drawing_here(monkeypatch):
    import gamesim.report.pictures as pw

    monkeypatch.setattr(pw.sys, "executable", "/nonexistent/python")
    spec = _spec([4, 3])
    with PictureDrawer() as drawer:
        key = drawer.submit(spec)
        assert drawer.picture(key) == base64.b64encode(chart_picture(spec)).decode("ascii")
        fonts = drawer._fonts_dir
    assert fonts is None or not os.path.exists(fonts)  # the fonts folder goes with the drawer


def test_a_spec_the_helper_cannot_draw_is_drawn_here_and_fails_the_same_way():
    with PictureDrawer() as drawer:
        ok = drawer.submit(_spec([1]))
        bad = drawer.submit({"mark": "no-such-mark", "data": {"values": []}})
        assert drawer.picture(ok)
        with pytest.raises(Exception):  # drawn here again: the report sees vl-convert's own error
            drawer.picture(bad)


def test_figure_placeholders_are_filled():
    import altair as alt
    import pandas as pd

    chart = alt.Chart(pd.DataFrame({"x": [1, 2], "y": [3, 4]})).mark_point().encode(x="x:Q", y="y:Q")
    with PictureDrawer() as drawer:
        pending = chart_html(chart, "a caption", drawer=drawer)
        assert _PENDING in pending
        filled = fill_pictures(pending, drawer)
    assert _PENDING not in filled
    pic = filled.split('src="data:image/jpeg;base64,')[1].split('"')[0]
    _same_picture(pic, chart_picture(chart.to_dict(validate=False)))


def test_helpers_per_report_follow_the_cores_and_the_cap_set_for_side_by_side_reports(monkeypatch):
    import gamesim.report.pictures as pw

    monkeypatch.delenv(pw.HELPERS_ENV, raising=False)
    for cores in (1, 2, 8):
        monkeypatch.setattr(pw, "available_cores", lambda c=cores: c)
        assert pw.default_helpers() == min(cores, pw.MAX_HELPERS)
        monkeypatch.setenv(pw.HELPERS_ENV, "1")  # what gamesim report's render workers set
        assert pw.default_helpers() == 1
        monkeypatch.delenv(pw.HELPERS_ENV)
    for bad in ("0", "3", "x", "1.5", "", "-1"):
        monkeypatch.setenv(pw.HELPERS_ENV, bad)
        with pytest.raises(ValueError, match=rf"^{pw.HELPERS_ENV} = {bad!r}, must be an integer 1\.\.2$"):
            pw.default_helpers()
    monkeypatch.setenv(pw.HELPERS_ENV, "1")
    with PictureDrawer() as drawer:
        assert len(drawer._helpers) == 1


def test_render_workers_cap_the_helpers_of_their_reports(monkeypatch):
    """The initializer of gamesim report's render workers sets the cap their reports' kernels inherit."""
    import os

    import gamesim.cli as cli
    import gamesim.report.pictures as pw

    monkeypatch.delenv(pw.HELPERS_ENV, raising=False)
    monkeypatch.setattr(cli.signal, "signal", lambda *a: None)  # not this test process's handlers
    monkeypatch.setattr("gamesim.run.chunks.watch_parent", lambda owner: None)
    cli._render_worker_init(os.getpid())
    assert os.environ[pw.HELPERS_ENV] == "1"


def test_draw_jpeg_gives_a_white_backed_jpeg_of_the_chart_and_refuses_bad_scales():
    import io

    import vl_convert as vlc
    from PIL import Image

    spec = _spec([3, 1, 2]) | {"background": "transparent"}
    pic = draw_jpeg(spec)
    assert pic.startswith(b"\xff\xd8\xff")  # a JPEG file
    with Image.open(io.BytesIO(pic)) as im, Image.open(io.BytesIO(vlc.vegalite_to_png(spec, scale=1.25))) as png:
        assert im.mode == "RGB" and im.size == png.size  # vl-convert's layout, at the scale asked for
        assert png.getpixel((0, 0))[3] == 0 and min(im.getpixel((0, 0))) >= 250  # transparent drawn white
        bars = [im.getpixel((x, y)) for x in range(im.size[0]) for y in range(0, im.size[1], 4)]
        assert any(b > r + 60 for r, _, b in bars)  # the blue bars are there
    with Image.open(io.BytesIO(draw_jpeg(_spec([3, 1, 2]), 2.5))) as big, Image.open(io.BytesIO(pic)) as small:
        assert big.size[0] == pytest.approx(2 * small.size[0], abs=2)
    for bad, err in ((0, ValueError), (-1.0, ValueError), (float("nan"), ValueError), (float("inf"), ValueError),
                     (True, TypeError), ("1", TypeError), (None, TypeError)):
        with pytest.raises(err, match=r"^scale = .*, must be a (finite )?number > 0$"):
            draw_jpeg(spec, bad)
    with pytest.raises(ValueError):  # vl-convert's own message
        draw_jpeg({"mark": "no-such-mark", "data": {"values": []}})


def _fake_font_root(tmp_path: Path) -> Path | None:
    """A font folder with the machine's Liberation Sans (regular and narrow) and DejaVu Sans, if it has them."""
    import glob

    found = {name: glob.glob(f"/usr/share/fonts/**/{name}", recursive=True)
             for name in ("LiberationSans-Regular.ttf", "LiberationSansNarrow-Regular.ttf", "DejaVuSans.ttf")}
    if not all(found.values()):
        return None
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    for name, paths in found.items():
        shutil.copy(paths[0], root / "sub" / name)
    (root / "readme.txt").write_text("not a font")
    (root / "LiberationSans-Bold.ttf").write_bytes(b"not a font either")  # named like one, unreadable: kept
    (root / "zz").mkdir()
    (root / "zz" / "again.ttf").symlink_to(root / "sub" / "DejaVuSans.ttf")  # the same file twice: linked once
    return root


def test_picture_fonts_leave_out_only_the_system_copy_of_vl_convert_s_own_font(tmp_path, monkeypatch):
    from gamesim.report.drawing import picture_fonts

    root = _fake_font_root(tmp_path)
    if root is None:
        pytest.skip("this machine has no Liberation Sans / DejaVu Sans files to build the test folder from")
    monkeypatch.delenv("FONTCONFIG_FILE", raising=False)
    out = tmp_path / "out"
    out.mkdir()
    conf = picture_fonts(out, roots=[str(root)])
    assert conf == out / "fonts.conf"
    linked = sorted(p.name.split("-", 1)[1] for p in (out / "fonts").iterdir())
    assert linked == ["DejaVuSans.ttf", "LiberationSans-Bold.ttf", "LiberationSansNarrow-Regular.ttf"]
    assert f"<dir>{(out / 'fonts').resolve()}</dir>" in conf.read_text(encoding="utf-8")
    # nothing to leave out, the user's own configuration, or a folder that is not there: nothing written
    (root / "sub" / "LiberationSans-Regular.ttf").unlink()
    other = tmp_path / "other"
    other.mkdir()
    assert picture_fonts(other, roots=[str(root)]) is None and not list(other.iterdir())
    monkeypatch.setenv("FONTCONFIG_FILE", "/etc/fonts/fonts.conf")
    assert picture_fonts(other, roots=[str(tmp_path)]) is None
    with pytest.raises(FileNotFoundError, match="does not exist"):
        picture_fonts(tmp_path / "missing")
    with pytest.raises(TypeError, match="folder = 3"):
        picture_fonts(3)  # type: ignore[arg-type]


def test_helpers_get_the_picture_fonts_and_bad_helper_counts_are_refused(monkeypatch):
    import gamesim.report.pictures as pw

    monkeypatch.delenv("FONTCONFIG_FILE", raising=False)
    seen = []
    real = pw.subprocess.Popen
    monkeypatch.setattr(pw.subprocess, "Popen", lambda *a, **k: seen.append(k.get("env")) or real(*a, **k))
    with PictureDrawer(1) as drawer:
        fonts = drawer._fonts_dir
        assert drawer.picture(drawer.submit(_spec([2, 1])))
        if fonts is not None:
            assert seen[0]["FONTCONFIG_FILE"] == str(Path(fonts) / "fonts.conf")
            assert Path(seen[0]["FONTCONFIG_FILE"]).is_file()
        else:
            assert seen == [None]
    assert fonts is None or not os.path.exists(fonts)
    assert "FONTCONFIG_FILE" not in os.environ  # this process keeps the machine's fonts
    for bad, exc in ((True, TypeError), (1.0, TypeError), ("1", TypeError), (-1, ValueError), (3, ValueError)):
        with pytest.raises(exc, match=rf"^n_helpers = {bad!r}, must be an integer 0\.\.2$"):
            PictureDrawer(bad)


def test_without_a_temporary_folder_the_helpers_draw_with_the_machine_s_fonts(monkeypatch):
    import gamesim.report.pictures as pw

    def no_room(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(pw.tempfile, "mkdtemp", no_room)
    seen = []
    real = pw.subprocess.Popen
    monkeypatch.setattr(pw.subprocess, "Popen", lambda *a, **k: seen.append(k.get("env")) or real(*a, **k))
    with PictureDrawer(1) as drawer:
        assert drawer._fonts_dir is None
        _same_picture(drawer.picture(drawer.submit(_spec([3, 2]))), chart_picture(_spec([3, 2])))
    assert seen == [None]
