"""JSON Schemas (draft 2020-12) shipped with gamecert, loaded by name."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from gamecert.schemas.checked_once import MISSING, Verdicts, digest


@cache
def load_schema(name: str) -> dict[str, Any]:
    """Return the schema `schemas/<name>.schema.json`."""
    text = resources.files(__package__).joinpath(f"{name}.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def validator(name: str) -> Draft202012Validator:
    schema = load_schema(name)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def read_text_file(path: str | Path, error: type[Exception]) -> str:
    """A UTF-8 file's text; any problem raises `error` naming the file."""
    p = Path(path)
    try:
        return p.read_text("utf-8")
    except OSError as exc:
        raise error(f"{p}: cannot read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise error(f"{p}: not UTF-8 text (byte {exc.start})") from None


def read_json_file(path: str | Path, error: type[Exception]) -> Any:
    """Parse a JSON file; any problem raises `error` naming the file and the place."""
    return parse_json(read_text_file(path, error), str(path), error)


def parse_json(text: str, where: str, error: type[Exception]) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{where}: line {exc.lineno}, column {exc.colno}: not valid JSON: "
                    f"{exc.msg}") from None


def json_path(parts: Any) -> str:
    """Render a jsonschema error path as `rules[3].parameters.width`."""
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


# verdicts by content, so a document met again is not validated again (checked_once.py)
VERDICTS = Verdicts()


def first_error(name: str, document: Any) -> str | None:
    """Validate `document`; return the most relevant error as one line, or None. A document
    of JSON's own types judged lately is not validated again (schemas.checked_once)."""
    key = digest(name, document)
    if key is not None:
        verdict = VERDICTS.get(key)
        if verdict is not MISSING:
            cached: str | None = verdict
            return cached
    problem = _first_error(name, document)
    if key is not None:
        VERDICTS.put(key, problem)
    return problem


def _first_error(name: str, document: Any) -> str | None:
    errors = sorted(validator(name).iter_errors(document), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    best = errors[0]
    return f"at {json_path(best.absolute_path)}: {best.message}"
