"""A bot that answers every request after ``SECONDS`` and appends the request's ``hand``
and ``clock`` to ``LOG`` (one JSON line per request): over stdio, or with ``--http`` as
an HTTP server on a free port of 127.0.0.1 (its URL is the first line it prints).

usage: slow.py SECONDS LOG [--http]
"""

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from common import answer

SECONDS, LOG = float(sys.argv[1]), sys.argv[2]
lock = threading.Lock()


def reply(text: str) -> str:
    request = json.loads(text)
    with lock, open(LOG, "a") as log:
        log.write(json.dumps({"hand": request.get("hand"), "clock": request.get("clock"),
                              "at": time.monotonic()}) + "\n")
    time.sleep(SECONDS)
    return answer(request)


class Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = reply(self.rfile.read(int(self.headers["Content-Length"])).decode()).encode()
        try:
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except OSError:
            pass  # the table stopped waiting

    def log_message(self, *args: object) -> None:
        pass


if "--http" in sys.argv:
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(f"http://127.0.0.1:{server.server_address[1]}", flush=True)
    server.serve_forever()
else:
    for text in sys.stdin:
        print(reply(text), flush=True)
