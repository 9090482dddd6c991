"""Hostile engines: engines that die: at start, before hello, mid-game, between requests, half
a line out, leaving a child."""
