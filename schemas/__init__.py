"""JSON Schemas (draft 2020-12) shipped with gamecert, loaded by name."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator


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


def json_path(parts: Any) -> str:
    """Render a jsonschema error path as `rules[3].parameters.width`."""
    out = ""
    for part in parts:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(top level)"


def first_error(name: str, document: Any) -> str | None:
    """Validate `document`; return the most relevant error as one line, or None."""
    errors = sorted(validator(name).iter_errors(document), key=lambda e: list(e.absolute_path))
    if not errors:
        return None
    best = errors[0]
    return f"at {json_path(best.absolute_path)}: {best.message}"
