"""Find base rounds for tournaments/planning/design_data.py (offline; seeded; run with nice).

    nice -n 10 .venv/bin/python tools/design_search.py 40 --seed 3 --seconds 500 [--write]

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

# players -> (program, modulus, arguments after the modulus)
#   plain m k f [z]: Z_m x {0..k-1} + f fixed points; z forbids mixed difference 0 (groups x_0,x_1,x_2)
#   orbit m f: 3-fold symmetric base round over Z_m x {0,1,2} + f fixed points (f = 1 or 3)
METHODS: dict[int, tuple[str, int, tuple[str, ...]]] = {
    20: ("plain", 5, ("4", "0")),  # Z_5 x 4: 5 rounds
    24: ("orbit", 7, ("3",)),  # 4-RGDD of type 3^8
    28: ("plain", 9, ("3", "1")),  # round robin
    32: ("plain", 10, ("3", "2")),  # 4-RGDD of type 2^16
    36: ("orbit", 11, ("3",)),  # 4-RGDD of type 3^12
    40: ("plain", 13, ("3", "1")),  # round robin
    44: ("plain", 14, ("3", "2")),  # 4-RGDD of type 2^22
    48: ("orbit", 15, ("3",)),  # 4-RGDD of type 3^16
    52: ("orbit", 17, ("1",)),  # round robin
    56: ("plain", 18, ("3", "2")),  # 4-RGDD of type 2^28
    60: ("orbit", 19, ("3",)),  # 4-RGDD of type 3^20
    68: ("plain", 21, ("3", "5")),  # 21 rounds (of the bound 22)
    72: ("orbit", 23, ("3",)),  # 4-RGDD of type 3^24
    76: ("orbit", 25, ("1",)),  # round robin
    80: ("plain", 26, ("3", "2")),  # 4-RGDD of type 2^40
    84: ("orbit", 27, ("3",)),  # 4-RGDD of type 3^28
    88: ("orbit", 29, ("1",)),  # round robin
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
    """One seeded run of the size's method: the base round, or [] when not found in time."""
    program, modulus, rest = METHODS[players]
    if program == "plain":
        args = [str(modulus), rest[0], rest[1], str(seed), str(seconds), *rest[2:]]
        if players % 12 == 0:
            args.append("z")
    else:
        args = [str(modulus), rest[0], str(seed), str(seconds)]
    done = subprocess.run([str(binaries[program]), *args], capture_output=True, text=True)
    print(done.stderr.strip(), file=sys.stderr)
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
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--write", action="store_true")
    options = parser.parse_args()
    cyclic = dict(design_data.CYCLIC)
    with tempfile.TemporaryDirectory() as directory:
        binaries = compile_programs(pathlib.Path(directory))
        for players in options.players:
            base = run(players, options.seed, options.seconds, binaries)
            if base:
                check(players, METHODS[players][1], base)
                cyclic[players] = (METHODS[players][1], tuple(sorted(base)))
                print(f"{players}: found and checked ({METHODS[players][1]} rounds)")
    if options.write:
        DATA.write_text(render(cyclic))


if __name__ == "__main__":
    main()
