"""Reads its first request, says why on stderr and exits (code 2) before answering: a
crash at start-up, before any game."""

from __future__ import annotations

import sys


def main() -> None:
    sys.stdin.readline()
    sys.stderr.write("crash_before_hello: missing licence file\n")
    sys.stderr.flush()
    sys.exit(2)


if __name__ == "__main__":
    main()
