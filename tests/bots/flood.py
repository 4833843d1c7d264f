"""A stdio bot that answers its first request, then writes stale answers (naming that
first request, each 30 KB long) as fast as it can, for ever, answering nothing else."""

import json
import sys
import threading

from common import answer

request = json.loads(sys.stdin.readline())
out = sys.stdout.buffer
out.write((answer(request) + "\n").encode())
out.flush()
line = (answer(request, name="x" * 30_000) + "\n").encode()
threading.Thread(target=lambda: [None for _ in sys.stdin], daemon=True).start()
chunk = line * 32
try:
    while True:
        out.write(chunk)
        out.flush()
except OSError:  # the table hung up
    pass
