"""Engines that misbehave as programs, for testing that gamecert survives them."""
