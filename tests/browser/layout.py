"""What a phone page must not do, measured in the browser: scroll sideways, cut text off, break a
heading's word in two. Shared by the test that walks every page and the layout tests."""

from __future__ import annotations

# One pass over the page's rendered elements; returns a list of problems in words (empty: fine).
#  - the page scrolls sideways (the document is wider than the window);
#  - an element cuts its content (overflow hidden/clip/auto/scroll, text-overflow: ellipsis or a
#    line clamp) and that content is wider or taller than the box: text hidden, or behind a scroll
#    of its own that a player must find (no exception: the standings too fit the phone's width);
#  - a heading's word is broken across two lines (a word's range has rects on two lines).
PAGE_PROBLEMS_JS = r"""
() => {
  const problems = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth) {
    problems.push(`the page scrolls sideways: ${doc.scrollWidth} px wide, window ${window.innerWidth} px`);
  }
  const describe = (el) => {
    const text = (el.innerText || el.textContent || "").trim().replace(/\s+/g, " ").slice(0, 60);
    const names = typeof el.className === "string" ? el.className.trim() : "";
    const cls = names ? "." + names.split(/\s+/).join(".") : "";
    return `<${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${cls}> "${text}"`;
  };
  const shown = (el) => {
    const away = "[hidden], .visually-hidden, .skip-link, dialog:not([open])";
    if (el.closest(away) || el.closest("details:not([open]) > :not(summary)")) {
      return false;
    }
    const rect = el.getBoundingClientRect();
    return rect.width > 2 && rect.height > 2;
  };
  const cuts = new Set(["hidden", "clip", "auto", "scroll"]);
  // Form fields scroll their own text by design; SVG draws its own.
  const SKIPPED = new Set(["svg", "path", "script", "style", "template", "option", "input", "select",
                           "textarea"]);
  for (const el of document.body.querySelectorAll("*")) {
    if (SKIPPED.has(el.tagName.toLowerCase())) continue;
    if (el.closest("svg")) continue;
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden" || !shown(el)) continue;
    const clipsX = cuts.has(style.overflowX) || style.textOverflow === "ellipsis";
    const clipsY = cuts.has(style.overflowY) || (style.webkitLineClamp && style.webkitLineClamp !== "none");
    if (clipsX && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`cut off sideways (${el.scrollWidth} px in ${el.clientWidth} px): ${describe(el)}`);
    }
    if (clipsY && el.scrollHeight > el.clientHeight + 1) {
      problems.push(`cut off below (${el.scrollHeight} px in ${el.clientHeight} px): ${describe(el)}`);
    }
  }
  for (const heading of document.body.querySelectorAll("h1, h2, h3, h4")) {
    if (!shown(heading)) continue;
    const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      // Words: what lies between spaces, hyphens, dashes and slashes (where a line may break).
      for (const match of node.data.matchAll(/[^\s\-\u2010\u2013\u2014\/·]+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const rects = [...range.getClientRects()].filter((r) => r.width > 0);
        const tops = new Set(rects.map((r) => Math.round(r.top)));
        if (tops.size > 1) problems.push(`a heading breaks "${match[0]}" across lines: ${describe(heading)}`);
      }
    }
  }
  return problems;
}
"""


def page_problems(page) -> list[str]:
    """What is wrong with the layout of the page `page` shows now (nothing: an empty list)."""
    return list(page.evaluate(PAGE_PROBLEMS_JS))
