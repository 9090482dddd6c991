"""Reports: the certificate (terminal table, JSON, JUnit XML), report.html and its board
pictures, the report folder's ownership and text made safe to show.

In: a campaign's result, traces, findings. Out: files and terminal text. Runs no engine.
"""
