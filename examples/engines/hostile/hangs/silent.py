"""Reads every request and never answers one."""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file, from any folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))



def main() -> None:
    for _ in sys.stdin:
        pass


if __name__ == "__main__":
    main()
