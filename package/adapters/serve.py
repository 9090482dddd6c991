"""Run an adapter class as a wire-protocol engine process.

    python -m gamecert.adapters.serve path/to/adapter.py:ClassName
    python -m gamecert.adapters.serve package.module:ClassName

The same `NativeAdapter` subclass that `gamecert certify --engine` runs in-process then runs
as its own process (`gamecert certify GAME --command "python -m gamecert.adapters.serve
..."`), which keeps a native engine's globals, threads and crashes out of gamecert. The
new_game reply carries the draws the engine made while setting up (`events`), and operations
the adapter does not offer are answered 'bad-request', as the wire schema says for an
operation an engine does not know. A new_game request's `rules` object becomes the `Profile`
the adapter's `start` gets (reference_engine.wire_rules), so the game is played under the
parameters the harness runs, even for a profile this process's catalogue does not list.
"""

from __future__ import annotations

import sys
from typing import IO, Any

from gamecert.adapters.base import NativeAdapter
from gamecert.fuzz.engines.engine import EngineSpecError
from gamecert.fuzz.engines.recipes import _import_object
from gamecert.fuzz.engines.server import _error, handle
from gamecert.fuzz.engines.server import serve as serve_session
from gamecert.reference_engine.contract import BadState, IllegalAction
from gamecert.reference_engine.wire_rules import RulesError, profile_from_rules
from gamecert.spec import CatalogueError


def reply_to(adapter: NativeAdapter, request: Any) -> tuple[dict[str, Any], bool]:
    """One reply for one request; the flag says whether to stop."""
    if isinstance(request, dict) and request.get("op") == "new_game":
        rid = request.get("id")
        try:
            profile = request.get("profile")
            if request.get("rules") is not None:
                if profile is not None and not isinstance(profile, str):
                    raise BadState(f"profile must be a profile name, not {profile!r:.60}")
                profile = profile_from_rules(adapter.catalogue, request["rules"], profile)
            state = adapter.new_game(profile, request.get("seed"))
        except IllegalAction as exc:
            return _error(rid, "illegal", str(exc)), False
        except (BadState, CatalogueError, RulesError) as exc:
            return _error(rid, "bad-state", str(exc)), False
        except Exception as exc:  # the native engine failed: a reply, never a crash of ours
            return _error(rid, "internal", f"{type(exc).__name__}: {exc}"), False
        return {"id": rid, "ok": True, "state": state, "events": adapter.start_events}, False
    op = request.get("op") if isinstance(request, dict) else None
    if op in ("legal", "load_state", "bot_output", "undo") and \
            op not in adapter.hello()["capabilities"]:
        return _error(request.get("id"), "bad-request",
                      f"{adapter.engine} does not offer {op!r} (not in its capabilities)"), False
    return handle(adapter, request)


def serve(adapter: NativeAdapter, stdin: IO[str] | None = None,
          stdout: IO[str] | None = None) -> None:
    src, out = stdin or sys.stdin, stdout or sys.stdout
    # Native engines print (progress, debugging): stdout carries the replies only, so
    # whatever the engine prints goes to stderr, which the harness keeps for its reports.
    sys.stdout = sys.stderr
    serve_session(adapter, src, out, reply_to=lambda request: reply_to(adapter, request))


def load_adapter(spec: str) -> NativeAdapter:
    """An instance of the adapter class named `path/file.py:Name` or `module:Name`."""
    obj = _import_object(spec)
    if not (isinstance(obj, type) and issubclass(obj, NativeAdapter)):
        raise EngineSpecError(f"{spec} is not a NativeAdapter subclass")
    return obj()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    replies = sys.stdout
    if len(args) != 1:
        print("usage: python -m gamecert.adapters.serve path/to/adapter.py:ClassName",
              file=sys.stderr)
        return 2
    sys.stdout = sys.stderr  # an engine that prints while it loads must not break the wire
    try:
        adapter = load_adapter(args[0])
    except (EngineSpecError, TypeError, RuntimeError) as exc:
        print(f"gamecert.adapters.serve: {exc}", file=sys.stderr)
        return 2
    finally:
        sys.stdout = replies
    serve(adapter, stdout=replies)
    return 0


if __name__ == "__main__":
    sys.exit(main())
