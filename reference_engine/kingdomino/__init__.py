"""Coders of the Realm (Kingdomino on CodinGame) reference engine."""

from gamecert.reference_engine.kingdomino.engine import KdConfig, KdState, Kingdomino

ENGINE = Kingdomino

__all__ = ["ENGINE", "KdConfig", "KdState", "Kingdomino"]
