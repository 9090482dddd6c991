"""How the state machine's rules are played: their bodies (`rules`), many in a row from one
seed (`runs`, its draws from `seeded_data`), and the campaign's driver over a machine class
(`driver`). The machine itself is `fuzz.search.machine`; this package must not judge (the
lockstep does) nor plan rounds (`fuzz.search.rounds`)."""
