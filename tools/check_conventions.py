"""Check the project's own conventions: `python -m tools.check_conventions [path ...]`.

With no path, every Python file of the project is checked, and an allowance that no longer matches
anything is reported too. `--rules` lists the rules. Run by `make lint` and `make test` (and so by
CI). The rules are in tools/custom_rules.py, the framework in tools/custom_check.py.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tools.custom_check import check_sources, project_files, read_sources
from tools.custom_rules import ROOT, RULES


def main(argv: list[str] | None = None) -> int:
    """Print every breach of the rules; the exit status is 1 if there is any."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="files to check (from the project's root); all if none")
    parser.add_argument("--rules", action="store_true", help="list the rules and exit")
    args = parser.parse_args(argv)
    if args.rules:
        for rule in RULES:
            print(f"{rule.name}: {rule.description}")
        return 0
    paths = [Path(p).resolve().relative_to(ROOT).as_posix() for p in args.paths] or project_files(ROOT)
    report = check_sources(read_sources(ROOT, paths), RULES, whole_project=not args.paths)
    for line in report.lines():
        print(line)
    if not report.clean:
        print(f"{len(report.lines())} problem(s); the rules: python -m tools.check_conventions --rules")
    return 0 if report.clean else 1


if __name__ == "__main__":
    sys.exit(main())
