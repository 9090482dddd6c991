"""Where the Node.js adapter kit is: the npm package `gamecert-adapter`, shipped inside
gamecert (package/adapters/node, installed as gamecert/adapters/node), so an installed gamecert
can hand it over without any registry:

    npm install "$(python -m gamecert.adapters.node_path)"

Prints the package's folder; exits 1 when the folder is missing (a broken install). This
module only locates files.
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path


def node_kit() -> Path:
    """The folder of the Node.js kit's package (it holds package.json)."""
    return Path(str(resources.files("gamecert.adapters").joinpath("node")))


def main() -> int:
    folder = node_kit()
    if not (folder / "package.json").is_file():
        print(f"gamecert.adapters.node_path: the Node.js kit is missing from {folder} "
              "(reinstall gamecert)", file=sys.stderr)
        return 1
    print(folder)
    return 0


if __name__ == "__main__":
    sys.exit(main())
