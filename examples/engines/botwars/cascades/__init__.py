"""Bot Wars mutants, one departure that makes later phases' oracles judge a wrong position
(CASCADES)."""
