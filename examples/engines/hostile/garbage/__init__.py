"""Hostile engines: engines that answer with what is not a reply: non-JSON, huge or deep lines,
wrong ids or shapes, floods."""
