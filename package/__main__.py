"""`python -m gamecert`: the same as the `gamecert` command."""

from gamecert.fuzz.cli.main import run

if __name__ == "__main__":  # not again in a worker process (multiprocessing spawn)
    run()
