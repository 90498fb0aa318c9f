"""Regenerates the golden clause lists from the notebook's own code.

Run from the repository root:  python3 tests/notebook_golden/generate.py

It extracts every top-level `def` of the notebook
(docs/sources/sat-notebook.txt, or the path given as argument),
runs them on small settings with a `variable` that returns symbolic names
(`M[x, y, t]`, `P[p, t]`, `C[c, t]`, `-` for negation) and writes one clause
per line, in the notebook's order. tests/notebook_golden.rs compares
snakesat's notebook encodings with these files literal for literal.
"""
import os
import sys
from itertools import combinations, product  # noqa: F401 (used by the notebook)

NOTEBOOK = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "sources", "sat-notebook.txt"
)
HERE = os.path.dirname(os.path.abspath(__file__))


class Lit(str):
    def __neg__(self):
        return Lit(self[1:]) if self.startswith("-") else Lit("-" + self)


def variable(id=None, typ="s"):
    kind = {"s": "M", "p": "P", "c": "C"}[typ]
    return Lit(kind + "[" + ", ".join(map(str, id)) + "]")


def format_clause(lits):
    return " ".join(lits)


def extract_defs(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    out, i = [], 0
    while i < len(lines):
        if lines[i].startswith("def "):
            while i < len(lines) and (
                lines[i].startswith("def ") or lines[i].startswith(" ") or lines[i] == ""
            ):
                out.append(lines[i])
                i += 1
        else:
            i += 1
    return "\n".join(out) + "\n"


exec(extract_defs(NOTEBOOK))


def emit(name, clauses):
    with open(os.path.join(HERE, name + ".txt"), "w") as f:
        f.write("".join(c + "\n" for c in clauses))


# MVP1: N=3, T=5 (4 moves), L0=3, no apples.
N, T, L0 = 3, 5, 3
cl = unicité_position(N, T) + existence_position(N, T) + next_move(N, T) + mordre_queue_v1(N, T, L0)
emit("notebook-mvp1", cl)

# MVP2: N=3, T=6 (5 moves), L0=2, 3 apples all visible.
N, T, L0 = 3, 6, 2
pommes = [(2, 1), (0, 2), (1, 1)]
nb_pommes = len(pommes)
base = (
    unicité_position(N, T) + existence_position(N, T) + next_move(N, T)
    + init_pommes(nb_pommes) + init_positions(pommes) + disparaitre_pommes(pommes, T)
    + preserver_pommes(pommes, T) + ne_pas_creer_pommes(nb_pommes, T)
)
cl = base + (
    comptage_pommes(pommes, T) + init_compteur(pommes, T)
    + ne_pas_desincrementer_compteur(nb_pommes, T) + ne_pas_incrementer_compteur(nb_pommes, T, pommes)
    + increment_unique(nb_pommes, T) + manger_des_pommes(nb_pommes, T)
    + mordre_queue_v2(N, T, L0, nb_pommes)
)
emit("notebook-counter", cl)
emit("notebook-combinations", base + mangez_des_pommes_v2(T, nb_pommes) + mordre_queue_v3(N, T, L0, nb_pommes))

# MVP3: N=3, T=7 (6 moves), L0=2, the same 3 apples in order.
T = 7
cl = (
    unicité_position(N, T) + existence_position(N, T) + next_move(N, T)
    + init_pommes(nb_pommes) + init_positions_v2(pommes) + disparaitre_pommes_v2(pommes, T)
    + preserver_pommes_v2(pommes, T) + ne_pas_creer_pommes(nb_pommes, T)
    + manger_des_pommes_v2(nb_pommes, T) + mordre_queue_v4(N, T, L0, nb_pommes)
)
emit("notebook-ordered", cl)
