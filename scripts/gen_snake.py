#!/usr/bin/env python3
"""IPC-2018-style snake problems beyond the IPC set (domain:
benchmarks/ipc2018-snake/domain.pddl): an empty WxH grid, a snake of length
2, 5 apples on the board and a spawn chain, the apples filling FILL percent of
the cells off the initial body (100: the last apple fills the board). Apples
are distinct cells off the initial body, drawn with Python's seeded RNG.

    scripts/gen_snake.py OUT_DIR --size 7x7 --fill 55,70,85,100 --seeds 1,2
"""
import argparse
import os
import random


def problem(width, height, fill, seed):
    rng = random.Random(seed * 1000 + width * 10 + height + fill)
    cells = [(x, y) for x in range(width) for y in range(height)]
    head = rng.choice(cells)
    x, y = head
    nbrs = [(a, b) for (a, b) in [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]
            if 0 <= a < width and 0 <= b < height]
    tail = rng.choice(nbrs)
    free = [c for c in cells if c not in (head, tail)]
    apples = rng.sample(free, round(len(free) * fill / 100))
    visible = min(5, len(apples))
    name = lambda c: f"pos{c[0]}-{c[1]}"
    out = [f"(define (problem snake-empty-{width}x{height}-fill{fill}-seed{seed})",
           "(:domain snake)", "(:objects", "    " + " ".join(name(c) for c in cells), ")", "(:init"]
    for (a, b) in cells:
        for (c, d) in [(a + 1, b), (a, b + 1), (a - 1, b), (a, b - 1)]:
            if 0 <= c < width and 0 <= d < height:
                out.append(f"    (ISADJACENT {name((a, b))} {name((c, d))})")
    out += [f"    (tailsnake {name(tail)})", f"    (headsnake {name(head)})",
            f"    (nextsnake {name(head)} {name(tail)})",
            f"    (blocked {name(head)})", f"    (blocked {name(tail)})"]
    chain = apples[visible:]
    if chain:
        out.append(f"    (spawn {name(chain[0])})")
        out.append(f"    (NEXTSPAWN {name(chain[-1])} dummypoint)")
        for a, b in zip(chain, chain[1:]):
            out.append(f"    (NEXTSPAWN {name(a)} {name(b)})")
    else:
        out.append("    (spawn dummypoint)")
    out += [f"    (ispoint {name(a)})" for a in apples[:visible]]
    out += [")", "(:goal", "(and"] + [f"    (not (ispoint {name(a)}))" for a in apples]
    out += [")", ")", ")"]
    return "\n".join(out) + "\n"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("out")
    p.add_argument("--size", default="7x7")
    p.add_argument("--fill", default="55,70,85,100")
    p.add_argument("--seeds", default="1")
    a = p.parse_args()
    w, h = (int(v) for v in a.size.split("x"))
    os.makedirs(a.out, exist_ok=True)
    k = 0
    for fill in (int(v) for v in a.fill.split(",")):
        for seed in (int(v) for v in a.seeds.split(",")):
            k += 1
            with open(os.path.join(a.out, f"instance-{k}.pddl"), "w") as f:
                f.write(problem(w, h, fill, seed))


if __name__ == "__main__":
    main()
