"""Bot Wars reference engine."""

from gamecert.reference_engine.botwars.engine import BotWars, BotWarsConfig, BotWarsState

ENGINE = BotWars

__all__ = ["ENGINE", "BotWars", "BotWarsConfig", "BotWarsState"]
