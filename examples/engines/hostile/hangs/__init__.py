"""Hostile engines: engines that are slow or never answer."""
