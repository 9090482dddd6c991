"""Bot Wars mutants, a turn's resolution: moves, battles, razing, spawning, the turn limit, the
winner."""
