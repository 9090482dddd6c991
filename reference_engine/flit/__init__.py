"""Flit reference engine."""

from gamecert.reference_engine.flit.engine import Flit, FlitConfig, FlitState

ENGINE = Flit

__all__ = ["ENGINE", "Flit", "FlitConfig", "FlitState"]
