"""A wire-protocol engine that plays the reference correctly, then misbehaves.

    python -m examples.engines.bad.misbehave MODE GAME [AFTER]

After AFTER `apply` requests (default 3) it does MODE:
  garbage   print a line that is not JSON
  hang      stop answering (and keep a child process alive, to test group kills)
  exit      exit with code 3 in the middle of the game
  flood     print an endless line with no newline
  wrong-id  answer with another request's id
  internal  answer with an 'internal' error reply (the engine's own crash report)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from gamecert.fuzz.engines.server import handle
from gamecert.reference_engine import reference_session

MODES = ("garbage", "hang", "exit", "flood", "wrong-id", "internal")


def main() -> None:
    mode, game = sys.argv[1], sys.argv[2]
    after = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    if mode not in MODES:
        sys.exit(f"unknown mode {mode!r}")
    session = reference_session(game)
    applies = 0
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("op") == "apply":
            applies += 1
            if applies > after:
                misbehave(mode, request)
                if mode != "wrong-id" and mode != "internal":
                    return
                continue
        reply, stop = handle(session, request)
        print(json.dumps(reply), flush=True)
        if stop:
            return


def misbehave(mode: str, request: dict[str, object]) -> None:
    if mode == "garbage":
        print("Traceback? no: just some words on stdout", flush=True)
        time.sleep(30)
    elif mode == "hang":
        # a child in the same process group: gamecert must not leave it behind
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
        with open(os.environ.get("MISBEHAVE_CHILD_PID", os.devnull), "w") as f:
            f.write(str(child.pid))
        time.sleep(600)
    elif mode == "exit":
        sys.exit(3)
    elif mode == "flood":
        chunk = "x" * 65536
        while True:
            sys.stdout.write(chunk)
            sys.stdout.flush()
    elif mode == "wrong-id":
        print(json.dumps({"id": -99, "ok": True, "state": {}, "events": []}), flush=True)
    elif mode == "internal":
        print(json.dumps({"id": request.get("id"), "ok": False,
                          "error": {"kind": "internal", "message": "ZeroDivisionError"}}),
              flush=True)


if __name__ == "__main__":
    main()
