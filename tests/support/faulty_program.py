"""A line-protocol (v2) agent that commits one kind of fault (tests of ``program:`` agents).

``python faulty_program.py MODE [LOG]``: ``crash`` exits at its first decision,
``timeout`` never answers, ``bad_output`` answers a word, ``illegal`` an id
that is never legal (999), ``good`` the highest legal id, ``view`` asks for the
view before answering the highest legal id, ``stray`` the highest legal id
after three stray lines (its previous answer again, a bare legal id, a log
line), ``v1`` speaks version 1 (answers ``hello`` with nothing, decisions with a
bare id). With ``LOG``, each answer is appended there as ``ID ACTION``, and
each ``end`` as ``end``.
"""

import json
import sys
import time

mode = sys.argv[1]
log = open(sys.argv[2], "a", buffering=1) if len(sys.argv) > 2 else None  # noqa: SIM115
previous = ""
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        if mode != "v1":
            print(f"hello {message['protocol']}", flush=True)
        continue
    if message["type"] == "end" and log is not None:
        log.write("end\n")
    if message["type"] != "decision":
        continue
    if mode == "crash":
        sys.exit(3)
    if mode == "timeout":
        time.sleep(60)
    if mode == "view" and "view" not in message:
        print(f"{message['id']} view", flush=True)
        continue
    best = max(message["legal"])
    answer = {"bad_output": "pass", "illegal": "999"}.get(mode, str(best))
    if mode == "stray":
        print(previous or "0 121", flush=True)  # a late copy of the last answer
        print(min(message["legal"]), flush=True)  # a bare legal id, as version 1 answered
        print("thinking about it...", flush=True)
    reply = answer if mode == "v1" else f"{message['id']} {answer}"
    print(reply, flush=True)
    previous = reply
    if log is not None:
        log.write(f"{message['id']} {answer}\n")
