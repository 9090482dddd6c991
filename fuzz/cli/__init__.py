"""Front ends: the `gamecert` command, its live progress display, `gamecert prove` and the
pytest plugin for engine repositories.

In: everything below (engines, search, findings, reports, bot-check). Out: exit codes,
printed reports, pytest items. Nothing below imports from here.
"""
