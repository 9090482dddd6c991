"""Mutant: battles fought one adjacent pair at a time, the dead removed at once, instead of
all battles decided together on the post-move field. Breaks BOTWARS-BATTLE."""

from __future__ import annotations

from gamecert.reference_engine.botwars.engine import BOT, BotWars, BotWarsConfig

RULE = "BOTWARS-BATTLE"


class PairwiseBattles(BotWars):
    def battle_deaths(self, cfg: BotWarsConfig,
                      grid: bytes) -> list[tuple[int, tuple[int, ...]]]:
        field = bytearray(grid)

        def foes(sq: int) -> tuple[int, ...]:
            enemy = BOT[2] if field[sq] == BOT[1] else BOT[1]
            return tuple(sorted(n for n in cfg.nbrs[sq] if field[n] == enemy))

        dead: dict[int, tuple[int, ...]] = {}
        for a in range(len(field)):
            for b in foes(a) if field[a] in (BOT[1], BOT[2]) else ():
                if field[a] not in (BOT[1], BOT[2]) or field[b] not in (BOT[1], BOT[2]):
                    continue
                fa, fb = foes(a), foes(b)
                lose_a, lose_b = len(fb) <= len(fa), len(fa) <= len(fb)
                if lose_a:
                    dead[a] = fa
                    field[a] = ord(".")
                if lose_b:
                    dead[b] = fb
                    field[b] = ord(".")
        return sorted(dead.items())


ENGINE = PairwiseBattles

if __name__ == "__main__":
    from gamecert.fuzz.server import serve_engine
    serve_engine(ENGINE(), name=__name__)
