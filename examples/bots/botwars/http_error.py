#!/usr/bin/env python3
"""A web-server bot (the original deployment) that fails with HTTP 500 at turn 3. It prints
its URL as its first stdout line. Expected: BOTWARS-FORMAT-DQ, verdict 'disqualified'."""

import json
from http.server import BaseHTTPRequestHandler, HTTPServer

from warbot import plan

TURN = [0]


class Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        TURN[0] += 1
        doc = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        if TURN[0] == 3:
            self.send_error(500, "KeyError: 'energy'")
            return
        body = json.dumps(plan(doc)).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


server = HTTPServer(("127.0.0.1", 0), Handler)
print(f"http://127.0.0.1:{server.server_address[1]}/", flush=True)
server.serve_forever()
