"""Carcassonne season mutants: engines that keep the shipped value of one rule parameter
whatever a season file says."""
