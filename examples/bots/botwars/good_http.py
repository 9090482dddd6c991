#!/usr/bin/env python3
"""A correct Bot Wars bot on the original server's protocol, as a web server: each turn the
form field `data` is POSTed to it (players r and b) and it answers with a JSON list of valid
moves. It prints its URL as its first stdout line. Expected: clean, in either seat."""

from warbot import serve

serve()
