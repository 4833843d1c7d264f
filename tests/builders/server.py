"""A bot server running on a thread of the test process, for the tests that talk to one."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from interfaces.server import BotServer, make_server
from interfaces.service import BotService


@contextmanager
def running_server(agent: str = "equity", **limits: Any) -> Iterator[BotServer]:
    """``make_server`` for ``agent`` on a free port, served on a thread until the block
    ends (``limits``: ``max_connections``, ``request_seconds``)."""
    server = make_server(BotService(agent), port=0, **limits)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(30)


def call_json(url: str, method: str, path: str, body: Any = None,
              timeout: float = 20) -> tuple[int, Any]:
    """One JSON request to the server at ``url``: its status and its decoded answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())
