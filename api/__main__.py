"""`python -m gamecert`: the same as the `gamecert` command."""

from gamecert.fuzz.cli import run

run()
