"""The codec registry: `gamecert.fuzz.botcheck.codecs.<game>` exports `CODEC` for that game's bot
protocol, the bytes a bot reads and writes as its competition runs them (one module a game,
in this folder). A new protocol (Kingdomino's CodinGame lines) plugs in by adding its
module; nothing here lists the games.
"""

from __future__ import annotations

import importlib

from gamecert.fuzz.botcheck.runner import Codec


class NoCodec(Exception):
    pass


def codec_for(game: str) -> Codec:
    if not game.isidentifier():
        raise NoCodec(f"no bot protocol for {game!r}")
    try:
        module = importlib.import_module(f"gamecert.fuzz.botcheck.codecs.{game}")
    except ModuleNotFoundError as exc:
        if exc.name != f"gamecert.fuzz.botcheck.codecs.{game}":
            raise
        raise NoCodec(f"no bot protocol is written for {game!r} yet") from None
    codec = getattr(module, "CODEC", None)
    if codec is None:
        raise NoCodec(f"no bot protocol for {game!r}")
    result: Codec = codec
    return result
