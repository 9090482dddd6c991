"""A bot that plays back one seat of a conformance corpus: before each of its recorded
replies it reads exactly as many bytes as the competition's engine would have sent by then,
writes them to its record file, and answers with the recorded reply. At the end it records
whatever else it is sent until the engine lets it go. The test compares the record with the
corpus: byte for byte what bot-check's codec sent to this seat.

    python replay_bot.py pipes|stdio|http SCRIPT RECORD [extra arguments, recorded too]

SCRIPT is a JSON list of {"to_bot": text, "from_bot": text}; RECORD gets one JSON object per
line: {"argv": [...]} first, then {"got": text} for each message, {"rest": text} at the end.
"""

from __future__ import annotations

import json
import os
import select
import sys
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any, BinaryIO


def read_exactly(stream: BinaryIO, n: int, quiet: float = 1.0) -> bytes:
    """`n` bytes, or fewer when the sender stops (closes, or sends nothing for `quiet` s once
    it has started): a short message is then recorded as it came, quickly."""
    data = b""
    fd = stream.fileno()
    while len(data) < n:
        if data and not select.select([fd], [], [], quiet)[0]:
            break
        chunk = os.read(fd, n - len(data))
        if not chunk:
            break
        data += chunk
    return data


def main() -> None:
    mode, script_path, record_path = sys.argv[1:4]
    with open(script_path, encoding="utf-8") as f:
        script: list[dict[str, Any]] = json.load(f)
    record = open(record_path, "a", encoding="utf-8")  # noqa: SIM115

    def note(**entry: Any) -> None:
        record.write(json.dumps(entry) + "\n")
        record.flush()

    note(argv=sys.argv[4:])
    if mode == "http":
        serve(script, note)
        return
    if mode == "pipes":
        out: BinaryIO = open("io/to_engine.pipe", "wb", buffering=0)  # noqa: SIM115
        inp: BinaryIO = open("io/from_engine.pipe", "rb", buffering=0)  # noqa: SIM115
    else:
        out, inp = sys.stdout.buffer, sys.stdin.buffer
    for step in script:
        want = step["to_bot"].encode("utf-8")
        got = read_exactly(inp, len(want))
        note(got=got.decode("utf-8", "backslashreplace"))
        if got != want:
            return  # exits: the harness sees the pipe close, and the test shows the bytes
        out.write(step["from_bot"].encode("utf-8"))
        out.flush()
    rest = b""
    while chunk := os.read(inp.fileno(), 65536):
        rest += chunk
    note(rest=rest.decode("utf-8", "backslashreplace"))


def serve(script: list[dict[str, Any]], note: Any) -> None:
    steps = iter(script)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            note(got=body.decode("utf-8", "backslashreplace"),
                 content_type=self.headers.get("Content-Type"), path=self.path)
            step = next(steps, None)
            reply = b"" if step is None else step["from_bot"].encode("utf-8")
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Handler)
    print(f"http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
