"""Where a Save's time goes on the phone's main thread: a Chromium trace of one Save, summarised.

    .venv/bin/python bench/offline_save.py --trace /tmp/save-trace.json

bench/offline_save.py with `--trace` plays one more game at the slowed CPU, records hole 5's Save
with Chromium's tracing (the DevTools timeline categories) and prints here the renderer main
thread's work from the task that dispatched the Save's click, for 200 ms: each task and its larger
parts (JavaScript with its function, style, layout, paint, HTML parsing), then the total of each
kind. The JSON file opens in Chrome's DevTools (Performance, "Load profile"). Tracing costs time
itself: compare its figures with each other, not with the benchmark's.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8.execute", "blink.user_timing"]
KINDS = {
    "UpdateLayoutTree": "style",
    "Layout": "layout",
    "PrePaint": "paint",
    "Paint": "paint",
    "Layerize": "paint",
    "ParseHTML": "parse HTML",
    "FunctionCall": "script",
    "RunMicrotasks": "script",
    "EvaluateScript": "script",
    "TimerFire": "script",
}


def label(event: dict[str, Any]) -> str:
    """An event's name, with its function and file where it is JavaScript."""
    data = event.get("args", {}).get("data", {}) or {}
    if event["name"] == "FunctionCall":
        where = data.get("url", "").rsplit("/", 1)[-1]
        return (
            f"FunctionCall {data.get('functionName') or '(anonymous)'} {where}:{data.get('lineNumber', '')}"
        )
    if event["name"] == "EventDispatch":
        return f"EventDispatch {data.get('type', '')}"
    return event["name"]


def summarise(path: Path, window_ms: float = 200) -> list[str]:
    """The lines to print: the main thread's work from the last click event, for `window_ms`."""
    loaded = json.loads(path.read_text())
    events = loaded["traceEvents"] if isinstance(loaded, dict) else loaded
    clicks = [
        e
        for e in events
        if e.get("name") == "EventDispatch" and (e.get("args", {}).get("data") or {}).get("type") == "click"
    ]
    if not clicks:
        return ["no click in the trace"]
    click = clicks[-1]
    thread = (click["pid"], click["tid"])
    on_thread = [e for e in events if (e["pid"], e["tid"]) == thread and e.get("ph") == "X"]
    # From the start of the task that dispatched the click (the tap's pointerdown and change too).
    start = min(e["ts"] for e in on_thread if e["ts"] <= click["ts"] < e["ts"] + e.get("dur", 0))
    end = start + window_ms * 1000
    mine = [e for e in on_thread if start <= e["ts"] < end]
    mine.sort(key=lambda e: (e["ts"], -e.get("dur", 0)))
    lines, stack, totals = [], [], Counter()
    for event in mine:
        while stack and event["ts"] >= stack[-1]["ts"] + stack[-1].get("dur", 0):
            stack.pop()
        ms = event.get("dur", 0) / 1000
        kind = KINDS.get(event["name"])
        if kind and not any(KINDS.get(outer["name"]) for outer in stack):
            totals[kind] += ms  # counted once: not inside another counted event
        if len(stack) <= 2 and ms >= 1:
            lines.append(
                f"{(event['ts'] - start) / 1000:7.1f} ms  {'  ' * len(stack)}{ms:5.1f}  {label(event)}"
            )
        stack.append(event)
    lines.append(
        "totals from the tap's task: " + ", ".join(f"{kind} {ms:.1f} ms" for kind, ms in totals.most_common())
    )
    return lines
