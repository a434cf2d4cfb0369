"""A TCP proxy on 127.0.0.1 whose open connections can be cut at once: a real network drop
between a client and a server, while new connections keep working.

    with TcpProxy(("127.0.0.1", server_port)) as proxy:
        ... client talks to proxy.port ...
        proxy.drop()  # every connection open now is closed (both ends)
"""

from __future__ import annotations

import contextlib
import socket
import threading


class TcpProxy:
    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        self.drops = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:  # closed
                return
            server = socket.create_connection(self.upstream)
            with self.lock:
                self.open |= {client, server}
            for source, sink in ((client, server), (server, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        self._close(source, sink)

    def _close(self, *sockets: socket.socket) -> None:
        for sock in sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()
            with self.lock:
                self.open.discard(sock)

    def drop(self) -> int:
        """Cut every open connection; returns how many sockets were closed."""
        with self.lock:
            cut = list(self.open)
        self._close(*cut)
        self.drops += 1
        return len(cut)

    def close(self) -> None:
        self.listener.close()
        self.drop()

    def __enter__(self) -> TcpProxy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
