"""Carcassonne reference engine (SYNCS Bot Battle 2025)."""

from gamecert.reference_engine.carcassonne.engine import Carcassonne, CarcConfig, CarcState, project

ENGINE = Carcassonne

__all__ = ["ENGINE", "CarcConfig", "CarcState", "Carcassonne", "project"]
