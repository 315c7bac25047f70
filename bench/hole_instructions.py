"""The hole POST's cost in instructions, this checkout against a baseline revision, in one run.

    .venv/bin/python bench/hole_instructions.py --baseline 6f5e961 [--holes 100] [--valgrind]

CPU time of one hole is a few milliseconds, and two runs of the same code differ by more than a
change of a tenth of a millisecond. Instruction counts repeat exactly, so this benchmark counts:

1. **Python instructions** (always): `sys.monitoring`'s INSTRUCTION event counts every bytecode
   instruction run while `--holes` holes are posted, per function, after one warm-up hole. The
   same bodies go to both trees (the same seeded random grids), so the counts are the code's own.
   It prints each tree's instructions and calls per hole, their ratio, and the functions whose
   counts differ most: where a change costs or saves.
2. **Machine instructions** (`--valgrind`): valgrind's callgrind counts every instruction the
   process runs (Python's interpreter, C extensions, the database driver), once with 10 holes and
   once with 10 + `--holes`; the difference divided by `--holes` is the cost of one hole, start-up
   and imports cancelled out. Slow (a minute or two per run) and exact to a few parts in ten
   thousand.

The baseline is checked out in a temporary git worktree (this checkout's `.venv` linked into it),
each tree gets its own fresh PostgreSQL database (`golfclub_instructions_<n>`, `--database` sets
the prefix; dropped at the end), migrated by its own code; the holes go through Django's test
client in-process, as in `bench/hole_profile.py`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PG = "postgres://postgres@127.0.0.1:5432"
WARM_HOLES = 10  # the valgrind runs' short count: start-up, imports and the first hole's caches


# --------------------------------------------------------------------------------------------
# The child: one tree, one database (run with the tree's code first on sys.path)


def child_setup(root: Path, database: str) -> list[list[Any]]:
    """Migrate a fresh `database` with the code of `root` and create the games; the jobs to send."""
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {database} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {database}")
    child_django(database)
    from django.core.management import call_command
    from django.test import Client

    from bench.live_games import PLAYERS

    call_command("migrate", verbosity=0)
    call_command("createcachetable", verbosity=0)
    client = Client(REMOTE_ADDR="10.0.0.1")
    rng = random.Random(2026)
    tokens = []
    for _ in range(40):  # 360 holes at most
        answer = client.post(
            "/api/v1/games/", {"players": PLAYERS, "ruleset": "official"}, content_type="application/json"
        )
        assert answer.status_code == 201, answer.content
        tokens.append(answer.json()["edit_token"])
    from bench.live_games import random_table

    return [[token, hole, random_table(rng)] for hole in range(1, 10) for token in tokens]


def child_django(database: str) -> None:
    """Django set up with the benchmark's settings against `database` (a fixed secret key)."""
    from bench.live_games import bench_environment

    os.environ.update(bench_environment(f"{PG}/{database}", limits=False))
    os.environ["SECRET_KEY"] = "k" * 64
    import django

    django.setup()


def hole_sender(client: Any) -> Any:
    """Post one job `(token, hole, grids)` as a table's phone does, checked 201.

    The same request as `bench/hole_profile.py`'s `senders`, written here because the child imports
    the measured tree's bench package, and a baseline's may not have it."""
    from bench.live_games import PLAYERS

    def post_hole(job: list[Any]) -> None:
        token, hole, grids = job
        answer = client.post(
            f"/api/v1/games/{token}/holes/",
            {"entries": grids, "ender": PLAYERS[hole % 4]},
            content_type="application/json",
            headers={"Idempotency-Key": f"{token}-{hole}"},
        )
        assert answer.status_code == 201, answer.content

    return post_hole


def counted(root: Path, send: Any, jobs: list[list[Any]]) -> dict[str, Counter]:
    """Python instructions and calls per function while `send` posts `jobs`."""
    monitoring = sys.monitoring
    tool = monitoring.OPTIMIZER_ID  # a free tool id (no optimizer runs here)
    calls: Counter = Counter()
    instructions: Counter = Counter()
    prefix = str(root) + "/"

    def name(code: Any) -> str:
        if code.co_filename == __file__:
            return f"(this benchmark):{code.co_qualname}"  # the same file for both trees
        where = code.co_filename.replace(prefix, "").split("site-packages/")[-1]
        return f"{where}:{code.co_qualname}"

    monitoring.use_tool_id(tool, "hole_instructions")
    monitoring.register_callback(
        tool, monitoring.events.PY_START, lambda code, _o: calls.update((name(code),))
    )
    monitoring.register_callback(
        tool, monitoring.events.INSTRUCTION, lambda code, _o: instructions.update((name(code),))
    )
    monitoring.set_events(tool, monitoring.events.PY_START | monitoring.events.INSTRUCTION)
    try:
        for job in jobs:
            send(job)
    finally:
        monitoring.set_events(tool, 0)
        monitoring.free_tool_id(tool)
    return {"calls": calls, "instructions": instructions}


def child_main(args: argparse.Namespace) -> None:
    """Set up (`--setup`) or post `--holes` holes after one warm-up, counting if asked."""
    root = Path(args.child).resolve()
    # This script's own folder (bench/, first on sys.path) would shadow top-level names: the tree's
    # code comes first instead.
    here = Path(__file__).resolve().parent
    sys.path[:] = [str(root)] + [p for p in sys.path if Path(p or ".").resolve() != here]
    jobs_file = Path(args.jobs)
    if args.setup:
        jobs_file.write_text(json.dumps(child_setup(root, args.database)))
        return
    import psycopg

    run_db = f"{args.database}_run"
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {run_db} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {run_db} TEMPLATE {args.database}")
    child_django(run_db)
    from django.core.cache import cache
    from django.test import Client

    cache.clear()
    jobs = json.loads(jobs_file.read_text())
    send = hole_sender(Client(REMOTE_ADDR="10.0.0.1"))
    send(jobs[0])
    if args.count:
        Path(args.count).write_text(json.dumps(counted(root, send, jobs[1 : 1 + args.holes])))
    else:
        for job in jobs[1 : 1 + args.holes]:
            send(job)


# --------------------------------------------------------------------------------------------
# The parent: both trees, the same bodies


def run_child(tree: Path, database: str, jobs: Path, *extra: str, valgrind: Path | None = None) -> None:
    """This script as a child on `tree` (its code first on sys.path), failing loudly."""
    command = [sys.executable, str(Path(__file__).resolve()), "--child", str(tree), "--database", database]
    command += ["--jobs", str(jobs), *extra]
    if valgrind is not None:
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={valgrind}", *command]
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(tree)}
    done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: {' '.join(extra)} failed:\n{done.stdout}{done.stderr}")


def machine_instructions(out: Path) -> int:
    """The total instructions (Ir) of a callgrind output file."""
    found = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
    assert found, out
    return int(found.group(1))


def measure_tree(tree: Path, n: int, work: Path, args: argparse.Namespace) -> dict[str, Any]:
    """Counts of one tree: Python instructions per function, and machine instructions if asked."""
    holes, database, jobs = args.holes, f"{args.database}_{n}", work / f"jobs{n}.json"
    run_child(tree, database, jobs, "--setup")
    # The baseline's games have other tokens: both trees get the first tree's bodies, token aside.
    if n:
        own = json.loads(jobs.read_text())
        first = json.loads((work / "jobs0.json").read_text())
        jobs.write_text(json.dumps([[mine[0], *theirs[1:]] for mine, theirs in zip(own, first, strict=True)]))
    counts = work / f"counts{n}.json"
    run_child(tree, database, jobs, "--holes", str(holes), "--count", str(counts))
    found: dict[str, Any] = json.loads(counts.read_text())
    if args.valgrind:
        short, long = work / f"cg{n}.short", work / f"cg{n}.long"
        run_child(tree, database, jobs, "--holes", str(WARM_HOLES), valgrind=short)
        run_child(tree, database, jobs, "--holes", str(WARM_HOLES + holes), valgrind=long)
        found["machine"] = (machine_instructions(long) - machine_instructions(short)) / holes
    return found


def print_comparison(baseline: str, results: list[dict[str, Any]], holes: int) -> None:
    """Per hole: each tree's counts and their ratio; then the functions that differ most."""
    base, this = results[1], results[0]
    print(f"{holes} holes per tree, the same bodies; per hole:")
    print(f"{'':<26}{'baseline ' + baseline:>22}{'this checkout':>16}{'ratio':>8}")
    rows = [("Python instructions", "instructions"), ("Python calls", "calls")]
    for label, key in rows:
        a, b = sum(base[key].values()) / holes, sum(this[key].values()) / holes
        print(f"{label:<26}{a:>22,.0f}{b:>16,.0f}{b / a:>8.3f}")
    if "machine" in this:
        a, b = base["machine"], this["machine"]
        print(f"{'machine instructions':<26}{a:>22,.0f}{b:>16,.0f}{b / a:>8.3f}")
    names = set(base["instructions"]) | set(this["instructions"])
    diff = {k: (this["instructions"].get(k, 0) - base["instructions"].get(k, 0)) / holes for k in names}
    ranked = sorted((d, k) for k, d in diff.items() if d)
    print("\nPython instructions per hole, this checkout minus the baseline (the 12 largest each way):")
    for d, k in [*(x for x in ranked[::-1][:12] if x[0] > 0), *(x for x in ranked[:12] if x[0] < 0)]:
        print(f"  {d:+9.1f}  {k}")


def drop_databases(prefix: str) -> None:
    """Drop the databases this run made (each tree's, and the copies the holes went to)."""
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        for n in (0, 1):
            for name in (f"{prefix}_{n}", f"{prefix}_{n}_run"):
                conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def parent_main(args: argparse.Namespace) -> None:
    """Check out the baseline, measure both trees, print the comparison."""
    with tempfile.TemporaryDirectory(prefix="hole-instructions-") as tmp:
        work = Path(tmp)
        tree = work / "baseline"
        subprocess.run(
            ["git", "worktree", "add", "-q", "--detach", str(tree), args.baseline], cwd=ROOT, check=True
        )
        try:
            (tree / ".venv").symlink_to(ROOT / ".venv")
            results = [measure_tree(path, n, work, args) for n, path in enumerate((ROOT, tree))]
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=True)
            drop_databases(args.database)
    print_comparison(args.baseline, results, args.holes)


def parse_args() -> argparse.Namespace:
    """The command line (see the module's docstring); `--child` and below are the child's."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--baseline", default="HEAD", help="the revision to compare with")
    parser.add_argument("--holes", type=int, default=100, help="holes counted per tree (at most 350)")
    parser.add_argument("--valgrind", action="store_true", help="also count machine instructions")
    parser.add_argument(
        "--database", default="golfclub_instructions", help="the databases' name prefix (dropped at the end)"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--jobs", help=argparse.SUPPRESS)
    parser.add_argument("--setup", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--count", help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ == "__main__":
    arguments = parse_args()
    if arguments.child:
        child_main(arguments)
    else:
        parent_main(arguments)
