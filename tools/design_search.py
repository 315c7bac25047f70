"""Find base rounds for tournaments/planning/design_data.py (offline; seeded; run with nice).

    nice -n 10 .venv/bin/python tools/design_search.py 40 44 [--seed 3] [--seconds 500] [--write]

compiles tools/design_search.c (plain: players = k*m + f, any base round) and
tools/design_orbit_search.c (3-fold symmetric, Buratti's 1-rotational form) with gcc, runs the
method chosen for the size (METHODS), checks the developed schedule (no pair twice, every round a
partition) and with --write stores it in the data module. Each run stops after --seconds of CPU.
"""

from __future__ import annotations

import argparse
import itertools
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tournaments.planning import design_data  # noqa: E402
from tournaments.planning.designs import develop  # noqa: E402

DATA = ROOT / "tournaments" / "planning" / "design_data.py"

# players -> (program, modulus, the program's other arguments, the seed that found the stored round)
#   plain m k f c z: Z_m x {0..k-1} + f fixed points, c base rounds; z > 0: groups of z coordinates
#     whose points with one x never meet (z = 3: the groups {x_0, x_1, x_2} of a 4-RGDD 3^u)
#   orbit m f a: base round invariant under (x, i) -> (a x, i + 1) over Z_m x {0,1,2} + f fixed
#     points (f = 3: they rotate too, groups {x_0, x_1, x_2}; else each is fixed with one orbit)
METHODS: dict[int, tuple[str, int, tuple[int, ...], int]] = {
    20: ("plain", 5, (4, 0, 1, 0), 1),  # Z_5 x 4: 5 rounds (the best known)
    24: ("orbit", 7, (3, 1), 1),  # 4-RGDD of type 3^8
    28: ("plain", 9, (3, 1, 1, 0), 1),  # round robin
    36: ("orbit", 11, (3, 1), 1),  # 4-RGDD of type 3^12
    40: ("orbit", 13, (1, 3), 2),  # round robin
    44: ("orbit", 14, (2, 9), 2),  # 4-RGDD of type 2^22
    48: ("orbit", 15, (3, 1), 5),  # 4-RGDD of type 3^16
    52: ("orbit", 17, (1, 1), 1),  # round robin
    56: ("orbit", 18, (2, 7), 2),  # 4-RGDD of type 2^28
    60: ("orbit", 19, (3, 1), 5),  # 4-RGDD of type 3^20
    68: ("orbit", 21, (5, 4), 2),  # 21 rounds (the bound is 22)
    72: ("orbit", 23, (3, 1), 2),  # 4-RGDD of type 3^24
    76: ("orbit", 25, (1, 1), 1),  # round robin
    80: ("orbit", 26, (2, 3), 3),  # 4-RGDD of type 2^40
    84: ("orbit", 27, (3, 10), 2),  # 4-RGDD of type 3^28
    88: ("orbit", 29, (1, 1), 1),  # round robin
}


def compile_programs(directory: pathlib.Path) -> dict[str, pathlib.Path]:
    """gcc -O2 both searches into `directory`."""
    out = {}
    for name, source in (("plain", "design_search.c"), ("orbit", "design_orbit_search.c")):
        binary = directory / name
        subprocess.run(["gcc", "-O2", "-o", str(binary), str(ROOT / "tools" / source), "-lm"], check=True)
        out[name] = binary
    return out


def run(players: int, seed: int, seconds: float, binaries: dict[str, pathlib.Path]) -> list[tuple[int, ...]]:
    """One seeded run of the size's method: the base rounds' tables, or [] when not found in time."""
    program, modulus, rest, _ = METHODS[players]
    args = [str(modulus), *map(str, rest), str(seed), str(seconds)]
    done = subprocess.run([str(binaries[program]), *args], capture_output=True, text=True)
    print(f"{players}: {program} {' '.join(args)}: {done.stderr.strip()}", file=sys.stderr)
    if done.returncode:
        return []
    return [tuple(sorted(int(word) for word in line.split())) for line in done.stdout.splitlines()]


def check(players: int, modulus: int, base: list[tuple[int, ...]]) -> None:
    """The developed schedule seats everyone once a round at tables of 4 and repeats no pair."""
    met: set[tuple[int, int]] = set()
    for one_round in develop(modulus, base, modulus):
        assert sorted(p for table in one_round for p in table) == list(range(players))
        for pair in itertools.chain.from_iterable(itertools.combinations(t, 2) for t in one_round):
            assert tuple(sorted(pair)) not in met, pair
            met.add(tuple(sorted(pair)))


def render(cyclic: dict[int, tuple[int, tuple[tuple[int, ...], ...]]]) -> str:
    """The data module's text, tables wrapped to the line length."""
    head, _, _ = DATA.read_text().partition("# fmt: off")
    lines = [
        head.rstrip() + "\n",
        "# fmt: off",
        "CYCLIC: dict[int, tuple[int, tuple[tuple[int, ...], ...]]] = {",
    ]
    for players in sorted(cyclic):
        modulus, base = cyclic[players]
        lines.append(f"    {players}: (")
        lines.append(f"        {modulus},")
        lines.append("        (")
        row = ""
        for table in base:
            text = "(" + ", ".join(map(str, table)) + "), "
            if len(row) + len(text) > 96:
                lines.append("            " + row.rstrip())
                row = ""
            row += text
        lines.append("            " + row.rstrip())
        lines.append("        ),")
        lines.append("    ),")
    lines.append("}")
    lines.append("# fmt: on")
    return "\n".join(lines) + "\n"


def main() -> None:
    """Search the sizes given, check, and optionally store."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("players", type=int, nargs="+")
    parser.add_argument("--seed", type=int, help="default: the seed METHODS names for the size")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--write", action="store_true")
    options = parser.parse_args()
    cyclic = dict(design_data.CYCLIC)
    with tempfile.TemporaryDirectory() as directory:
        binaries = compile_programs(pathlib.Path(directory))
        for players in options.players:
            seed = METHODS[players][3] if options.seed is None else options.seed
            base = run(players, seed, options.seconds, binaries)
            if base:
                check(players, METHODS[players][1], base)
                cyclic[players] = (METHODS[players][1], tuple(sorted(base)))
                print(f"{players}: found and checked ({METHODS[players][1]} rounds)")
    if options.write:
        DATA.write_text(render(cyclic))


if __name__ == "__main__":
    main()
