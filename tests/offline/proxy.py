"""A man in the middle between the test's phones and the live server (tests/offline).

It forwards every request and its answer as they are, and on demand: drops the answer to a chosen
request after the server has answered it (the write committed, the phone told nothing: the
connection closes), or holds the matching requests until `n` of them arrived, then lets them all go
at once (two phones sending at the same moment). It notes what it saw: method, path and headers.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx

Match = Callable[[str, str, dict[str, str], bytes], bool]
_HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding"}


@dataclass
class Seen:
    """One request the proxy forwarded."""

    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    dropped: bool = False


@dataclass
class Proxy:
    """Forwards to `target`; `drop_answer` and `gather` arm the faults (each used once)."""

    target: str
    seen: list[Seen] = field(default_factory=list)
    url: str = ""
    _drop: Match | None = None
    _gather: tuple[Match, threading.Barrier] | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def drop_answer(self, match: Match) -> None:
        """The next request matching `match` reaches the server; its answer never reaches the phone."""
        self._drop = match

    def gather(self, match: Match, n: int) -> None:
        """Hold the next `n` requests matching `match` until all `n` arrived, then forward them at once."""
        self._gather = (match, threading.Barrier(n, timeout=30))

    def _armed(self, request: Seen) -> tuple[bool, threading.Barrier | None]:
        with self._lock:
            drop = self._drop is not None and self._drop(
                request.method, request.path, request.headers, request.body
            )
            if drop:
                self._drop = None
            barrier = None
            if self._gather and self._gather[0](request.method, request.path, request.headers, request.body):
                barrier = self._gather[1]
            return drop, barrier

    def forward(self, handler: BaseHTTPRequestHandler) -> None:
        """Forward the handler's request; answer it, or close the connection (drop)."""
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        headers = {k: v for k, v in handler.headers.items() if k.lower() not in {"host", *_HOP_BY_HOP}}
        request = Seen(handler.command, handler.path, headers, body)
        drop, barrier = self._armed(request)
        with self._lock:
            self.seen.append(request)
        if barrier is not None:
            barrier.wait()
        with httpx.Client(base_url=self.target, timeout=60) as client:
            answer = client.request(handler.command, handler.path, headers=headers, content=body)
        if drop:
            request.dropped = True
            handler.close_connection = True
            handler.connection.shutdown(socket.SHUT_RDWR)
            return
        handler.send_response(answer.status_code)
        for name, value in answer.headers.multi_items():
            if name.lower() not in _HOP_BY_HOP:
                handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(answer.content)))
        handler.end_headers()
        handler.wfile.write(answer.content)


def _handler(proxy: Proxy) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:
            proxy.forward(self)

        do_POST = do_PUT = do_PATCH = do_DELETE = do_GET

        def log_message(self, format: str, *args: object) -> None:
            """Quiet."""

    return Handler


@contextmanager
def proxy_to(target: str) -> Iterator[Proxy]:
    """A running proxy to `target` (its address in `.url`), stopped on the way out."""
    proxy = Proxy(target)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(proxy))
    server.daemon_threads = True
    proxy.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield proxy
    finally:
        server.shutdown()
        server.server_close()
