"""Serve a Python `Game` over the engine wire protocol (newline-delimited JSON on stdio).

`gamecert serve flit` runs the reference engine this way; a mutant module runs itself this
way with `serve_engine(ENGINE(), name=...)`. Every request gets exactly one reply; errors
are replies, never crashes. `new_game`'s `rules` object is read only for a profile the
catalogue does not list (a season's profile file: the rules are all the engine knows of it);
a Session plays its catalogue's profile of a listed id. `undo` takes back the last `apply`.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import IO, Any

from gamecert.reference_engine.contract import BadState, Game, IllegalAction, Session
from gamecert.reference_engine.wire_rules import RulesError, profile_from_rules
from gamecert.spec import CatalogueError, Profile

MAX_REQUEST = 16 << 20


def handle(session: Session[Any, Any], request: Any) -> tuple[dict[str, Any], bool]:
    """One reply for one request; the flag says whether to stop."""
    rid = request.get("id") if isinstance(request, dict) else None
    if not isinstance(request, dict) or not isinstance(request.get("op"), str):
        return _error(rid, "bad-request", "a request is an object with 'id' and 'op'"), False
    op = request["op"]
    try:
        if op == "hello":
            return {"id": rid, "ok": True, **session.hello()}, False
        if op == "new_game":
            # the request's `rules` object (reference_engine.wire_rules) is for engines that
            # cannot read our catalogue; a Session reads its profile from the catalogue, and
            # from the rules a profile the catalogue does not list (a season's)
            state = session.new_game(_profile(session, request), request.get("seed"))
            drawn = getattr(session, "start_events", None)  # a session that draws for itself
            return {"id": rid, "ok": True, "state": state,
                    **({"events": drawn} if drawn else {})}, False
        if op == "load_state":
            if "state" not in request:
                return _error(rid, "bad-request", "load_state needs 'state'"), False
            return {"id": rid, "ok": True, "state": session.load_state(request["state"])}, False
        if op == "apply":
            if "action" not in request:
                return _error(rid, "bad-request", "apply needs 'action'"), False
            state, events = session.apply(request["action"])
            return {"id": rid, "ok": True, "state": state, "events": events}, False
        if op == "legal":
            return {"id": rid, "ok": True, **session.legal()}, False
        if op == "observe":
            return {"id": rid, "ok": True, "state": session.observe()}, False
        if op == "undo":
            return {"id": rid, "ok": True, "state": session.undo()}, False
        if op == "bot_output":
            text = request.get("text")
            if not isinstance(text, str):
                return _error(rid, "bad-request", "bot_output needs 'text' (a string)"), False
            return {"id": rid, "ok": True, "action": session.bot_output(text)}, False
        if op == "bye":
            return {"id": rid, "ok": True}, True
        return _error(rid, "bad-request", f"unknown op {op!r}"), False
    except IllegalAction as exc:
        return _error(rid, "illegal", str(exc)), False
    except (BadState, CatalogueError) as exc:
        return _error(rid, "bad-state", str(exc)), False
    except Exception as exc:  # an engine bug: say so in a reply, keep serving
        return _error(rid, "internal", f"{type(exc).__name__}: {exc}"), False


_SEASONS: dict[str, Profile] = {}  # one Profile per rules object: engines cache by identity


def _profile(session: Session[Any, Any], request: dict[str, Any]) -> str | Profile | None:
    """What a new_game request asks to play: a catalogue profile by id, or the profile its
    `rules` object describes when the catalogue does not list the id."""
    pid, rules = request.get("profile"), request.get("rules")
    if rules is None or not isinstance(pid, str) or pid in session.catalogue.profiles:
        return pid
    key = json.dumps(rules, sort_keys=True)
    if key not in _SEASONS:
        try:
            _SEASONS[key] = profile_from_rules(session.catalogue, rules, pid)
        except RulesError as exc:
            raise BadState(f"rules: {exc}") from None
    return _SEASONS[key]


def _error(rid: Any, kind: str, message: str) -> dict[str, Any]:
    return {"id": rid, "ok": False, "error": {"kind": kind, "message": message}}


def serve(session: Session[Any, Any], stdin: IO[str] | None = None,
          stdout: IO[str] | None = None,
          reply_to: Callable[[Any], tuple[dict[str, Any], bool]] | None = None) -> None:
    """Answer requests line by line until `bye` or end of input; `reply_to` (default:
    `handle` on the session) makes one reply from one parsed request."""
    src = stdin or sys.stdin
    out = stdout or sys.stdout
    answer = reply_to or (lambda request: handle(session, request))
    for line in src:
        if not line.strip(" \t\r\n"):
            continue
        if len(line) > MAX_REQUEST:
            reply, stop = _error(None, "bad-request", "request too long"), False
        else:
            try:
                request = json.loads(line)
            except json.JSONDecodeError as exc:
                reply, stop = _error(None, "bad-request", f"not JSON: {exc.msg}"), False
            except RecursionError:
                reply, stop = _error(None, "bad-request", "JSON nested too deeply"), False
            else:
                reply, stop = answer(request)
        out.write(json.dumps(reply, separators=(",", ":")) + "\n")
        out.flush()
        if stop:
            return


def serve_engine(game: Game[Any, Any], name: str = "engine") -> None:
    """Run `game` as a wire-protocol engine on this process's stdin/stdout."""
    serve(Session(game, name=name))
