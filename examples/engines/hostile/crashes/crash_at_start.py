"""Exits before answering anything, with a last word on stderr."""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a file, from any folder
    sys.path.insert(0, str(Path(__file__).resolve().parents[4]))



def main() -> None:
    sys.stderr.write("crash_at_start: cannot open my rules file\n")
    sys.exit(1)


if __name__ == "__main__":
    main()
