"""Bot Wars mutants, energy: where and when it appears, who collects it."""
