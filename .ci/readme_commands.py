"""Print the commands of README.md's "## Set-up" section, one per line: the fenced code
blocks in that section, in order. `.ci/run` runs them as CI; tests/test_readme_setup.py
runs the first. Standard library only: it runs before anything is installed."""

from __future__ import annotations

import re
import sys
from pathlib import Path


def setup_commands(readme: str) -> list[str]:
    """The fenced blocks of the "## Set-up" section, each a one-line command."""
    _, found, rest = readme.partition("\n## Set-up\n")
    if not found:
        raise SystemExit("README.md has no '## Set-up' section")
    section = rest.split("\n## ", 1)[0]
    blocks = re.findall(r"^```[a-z]*\n(.*?)\n```$", section, re.S | re.M)
    commands = [" ".join(b.split()) for b in blocks]
    if any("\n" in b.strip() for b in blocks):
        raise SystemExit("each Set-up block must be one command on one line")
    return commands


if __name__ == "__main__":
    for command in setup_commands(Path(sys.argv[1]).read_text("utf-8")):
        print(command)
