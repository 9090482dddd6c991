"""Hostile engines: engines that answer well-formed but wrong: another game, changing answers,
many bugs."""
