"""placeholder"""
ORACLES: list[object] = []
