"""A line-protocol agent that commits one kind of fault (tests of ``program:`` agents).

``python faulty_program.py MODE``: ``crash`` exits at its first decision,
``timeout`` never answers, ``bad_output`` answers a word, ``illegal`` an id
that is never legal (999), ``good`` the highest legal id.
"""

import json
import sys
import time

mode = sys.argv[1]
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] != "decision":
        continue
    if mode == "crash":
        sys.exit(3)
    if mode == "timeout":
        time.sleep(60)
    answer = {"bad_output": "pass", "illegal": "999"}.get(mode)
    if answer is None:
        answer = str(max(move["id"] for move in message["legal"]))
    print(answer, flush=True)
