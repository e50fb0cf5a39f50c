"""Text from scenario and data files, made safe to show in a report.

A scenario or card-data file is data written by anyone (a colleague, a forum
post); its strings (``title``, ``question``, ``notes``, part and case names,
card names) reach the report's Markdown cells, hence its HTML and PDF. Every such
string goes through :func:`safe_markdown` before it is displayed: Markdown stays
Markdown, a small inline HTML subset survives, and everything that could run,
fetch or embed (``<script>``, event handlers, ``<iframe>``, ``<link>``,
``<img>``, ``file:``/``http:`` URLs) is removed by nh3 (the Python binding of
the Ammonia sanitizer).
"""

from __future__ import annotations

import re

import nh3

__all__ = ["SAFE_TAGS", "safe_markdown"]

#: Inline HTML a scenario string may keep; no tag may carry an attribute.
SAFE_TAGS: frozenset[str] = frozenset({"b", "i", "em", "strong", "code", "sub", "sup", "br", "small", "s"})

# Markdown's own link and image syntax: [text](url) and ![alt](url). Only the text is kept,
# so no URL of a stranger's choosing (file:, http:, data:) is ever followed by the renderer.
_MD_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
# Reference-style definitions ("[x]: file:///etc/passwd") and autolinks (<file:///...>).
_MD_REF = re.compile(r"^\s*\[[^\]]+\]:\s*\S+.*$", re.MULTILINE)
_MD_AUTOLINK = re.compile(r"<([a-zA-Z][a-zA-Z0-9+.-]*:[^>\s]*)>")


def safe_markdown(text: str) -> str:
    """Return ``text`` with every active or fetching construct removed.

    Parameters
    ----------
    text : str
        A string from a scenario or data file (Markdown with optional inline HTML).

    Returns
    -------
    str
        Markdown that renders to plain formatted text: tags outside
        :data:`SAFE_TAGS` are dropped (their text kept, the content of
        ``script``/``style`` dropped), attributes are removed, Markdown links and
        images keep their text only, autolinks and reference definitions are
        shown as text.

    Raises
    ------
    TypeError
        If ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise TypeError(f"safe_markdown: text must be a str, got {type(text).__name__}")
    out = _MD_LINK.sub(lambda m: m.group(1), text)
    out = _MD_REF.sub("", out)
    out = _MD_AUTOLINK.sub(lambda m: m.group(1).replace(":", "&#58;", 1), out)
    out = nh3.clean(out, tags=set(SAFE_TAGS), attributes={}, url_schemes=set(), link_rel=None, strip_comments=True)
    return out
