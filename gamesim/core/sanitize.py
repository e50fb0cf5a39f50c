"""Text from scenario and data files, made safe to show in a report.

A scenario or card-data file is data written by anyone (a colleague, a forum
post); its strings (``title``, ``question``, ``notes``, part and case names,
parameter values, card names) reach the report's Markdown cells, hence its HTML
and PDF. Every such string goes through :func:`safe_markdown` before it is
displayed: Markdown formatting stays, a small inline HTML subset survives, and
everything that could run, fetch, embed or point elsewhere is removed.

Two layers, because the report's Markdown renderer (nbconvert's mistune, with
raw HTML and every URL scheme allowed) trusts its input:

1. HTML: nh3 (the Python binding of the Rust Ammonia sanitizer) keeps only the
   tags in :data:`SAFE_TAGS`, with no attributes; ``<script>``, ``<style>``,
   ``<iframe>``, ``<link>``, ``<img>``, ``<object>``, event handlers and comments
   go. Entities are decoded and re-escaped, so ``&lt;script&gt;`` stays text.
2. Markdown: a link or image needs ``](``, a reference link needs a definition
   ``[label]: url`` (``]:``) or a full reference ``][``; each of these is broken
   with a backslash escape, so no construct of Markdown's own can carry a URL of
   a stranger's choosing (``file:``, ``http:``, ``javascript:``, ``data:``).
   Autolinks (``<file:///etc/passwd>``) are kept as plain text, and the ``//`` of
   any ``scheme://`` is escaped so the renderer's bare-URL autolinker leaves it.
   Backslash escapes render as the character itself; only inside a code span
   would the backslash show.
"""

from __future__ import annotations

import html
import re

import nh3

__all__ = ["SAFE_TAGS", "plain_text", "safe_markdown"]

#: Inline HTML a scenario string may keep; no tag may carry an attribute.
SAFE_TAGS: frozenset[str] = frozenset({"b", "i", "em", "strong", "code", "sub", "sup", "br", "small", "s"})

# Markdown's own link and image syntax: [text](url) and ![alt](url); the simple cases keep
# their text only (anything else is broken below).
_MD_LINK = re.compile(r"!?\[([^\[\]]*)\]\([^)]*\)")
# Autolinks (<file:///...>, <http://...>, <mailto:...>): kept as text, without the angle brackets.
_MD_AUTOLINK = re.compile(r"<([a-zA-Z][a-zA-Z0-9+.-]{0,31}:[^<>\s]*)>")
# What follows a link label: an inline destination "(", a definition ":" or a full reference "[".
_MD_AFTER_LABEL = re.compile(r"\](\s*)([(:\[])")
# scheme:// (the renderer autolinks bare http(s) URLs)
_SCHEME_SLASHES = re.compile(r"([a-zA-Z][a-zA-Z0-9+.-]{0,31}):(\\?)//")


def safe_markdown(text: str) -> str:
    """Return ``text`` with every active, fetching or linking construct removed.

    Parameters
    ----------
    text : str
        A string from a scenario or data file (Markdown with optional inline HTML).

    Returns
    -------
    str
        Markdown that renders to plain formatted text: tags outside
        :data:`SAFE_TAGS` are dropped (their text kept; the content of
        ``script``/``style`` dropped), attributes are removed, simple Markdown
        links and images keep their text only, every other link, image, reference
        definition, autolink and bare URL is shown as text.

    Raises
    ------
    TypeError
        If ``text`` is not a ``str``.

    Examples
    --------
    >>> safe_markdown('Hi <script>alert(1)</script><img src="file:///dev/zero" onerror="x()">**there**')
    'Hi **there**'
    >>> safe_markdown("[see](file:///etc/passwd)")
    'see'
    """
    if not isinstance(text, str):
        raise TypeError(f"safe_markdown: text must be a str, got {type(text).__name__}")
    out = text.replace("\x00", "")
    out = _MD_LINK.sub(lambda m: m.group(1), out)
    out = _MD_AUTOLINK.sub(lambda m: m.group(1).replace(":", "&#58;", 1), out)
    out = nh3.clean(out, tags=set(SAFE_TAGS), attributes={}, url_schemes=set(), link_rel=None, strip_comments=True)
    # a bare ">" opens no tag; keeping it keeps Markdown block quotes
    out = out.replace("&gt;", ">")
    # after nh3 (which decodes entities): Markdown's own link syntax, on the text as the renderer sees it
    out = _MD_AFTER_LABEL.sub(lambda m: "]" + m.group(1) + "\\" + m.group(2), out)
    out = _SCHEME_SLASHES.sub(lambda m: m.group(1) + ":\\/\\/", out)
    return out


def plain_text(text: str) -> str:
    """Return ``text`` without any markup, for places that take plain text (an HTML ``<title>``).

    Parameters
    ----------
    text : str
        A string from a scenario or data file.

    Returns
    -------
    str
        The text with every tag removed (the content of ``script``/``style`` too) and
        entities decoded; the caller escapes it for its context.

    Raises
    ------
    TypeError
        If ``text`` is not a ``str``.
    """
    if not isinstance(text, str):
        raise TypeError(f"plain_text: text must be a str, got {type(text).__name__}")
    return html.unescape(nh3.clean(text.replace("\x00", ""), tags=set(), attributes={}, strip_comments=True))
