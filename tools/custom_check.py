"""The framework of the project's own lint rules (issue 35, item 6).

Ruff checks Python's conventions and import-linter the layers; the conventions that are this
project's own ("no query of scoring's tables outside its selectors and services", "no function over
60 lines") are rules here, so they are checked in CI rather than remembered. Zulip's
tools/linter_lib/custom_check.py is the model: a list of rules, each with a description, the files
it applies to, the files it leaves out, and a good and a bad example that tests/test_custom_check.py
runs (each rule fires on its bad example and not on its good one).

A rule is a `Rule`; its `check` reads one `SourceFile` and yields `(line, message)` pairs. Two kinds
of check are provided: `line_pattern` (a regular expression per line, as Zulip's rules are) and any
function of the parsed module (`SourceFile.tree`) for what a regular expression cannot see. The rules
themselves live in tools/custom_rules.py; `python -m tools.check_conventions` runs them.

A finding can be allowed, by name and with a reason, in the rule's `allow` map: its key is
"path::function" (the function the finding is in, its dotted name within the module, "<module>"
outside any function). An allowance that no longer matches anything is itself reported, so the list
only shrinks.
"""

from __future__ import annotations

import ast
import fnmatch
import re
import subprocess
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

# Never checked, whatever a rule says: what is not the project's own code.
NOT_PROJECT_CODE = (".venv/*", "static/*", "node_modules/*", "build/*", "staticfiles/*")

MODULE_SCOPE = "<module>"


@dataclass(frozen=True)
class SourceFile:
    """One Python file: its path from the project's root (with "/"), its text, its parsed tree."""

    path: str
    text: str

    @cached_property
    def lines(self) -> list[str]:
        return self.text.splitlines()

    @cached_property
    def tree(self) -> ast.Module:
        return ast.parse(self.text, filename=self.path)

    @cached_property
    def _scopes(self) -> list[tuple[int, int, str]]:
        """(first line, last line, dotted name) of every function and class, outermost first."""
        scopes: list[tuple[int, int, str]] = []

        def visit(node: ast.AST, prefix: str) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    name = f"{prefix}{child.name}"
                    scopes.append((child.lineno, child.end_lineno or child.lineno, name))
                    visit(child, f"{name}.")
                else:
                    visit(child, prefix)

        visit(self.tree, "")
        return scopes

    def scope_at(self, line: int) -> str:
        """The dotted name of the innermost function or class holding `line` ("<module>" if none)."""
        found = MODULE_SCOPE
        for first, last, name in self._scopes:
            if first <= line <= last:
                found = name  # scopes come outermost first, so the last match is the innermost
        return found


Check = Callable[[SourceFile], Iterable[tuple[int, str]]]


@dataclass(frozen=True)
class Example:
    """A snippet of code and the path it pretends to live at (a rule's scope depends on the path)."""

    path: str
    code: str


@dataclass(frozen=True)
class Rule:
    """One convention: what it says, where it applies, and the check that finds its breaches.

    `include` and `exclude` are shell patterns on the path from the project's root (fnmatch: "*"
    matches across "/", so "tests/*" is everything under tests/). `allow` maps "path::function" to
    the reason that finding is accepted for now.
    """

    name: str
    description: str
    check: Check
    good: tuple[Example, ...]
    bad: tuple[Example, ...]
    include: tuple[str, ...] = ("*.py",)
    exclude: tuple[str, ...] = ()
    allow: Mapping[str, str] = field(default_factory=dict)

    def applies_to(self, path: str) -> bool:
        """Whether the rule looks at the file at `path`."""
        if _matches(path, NOT_PROJECT_CODE) or _matches(path, self.exclude):
            return False
        return _matches(path, self.include)


@dataclass(frozen=True)
class Finding:
    """A breach of a rule at one line; `key` is what the rule's allow-list would name it by."""

    rule: str
    path: str
    line: int
    message: str
    key: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.rule}: {self.message}"


def _matches(path: str, patterns: Iterable[str]) -> bool:
    return any(fnmatch.fnmatchcase(path, pattern) for pattern in patterns)


def line_pattern(pattern: str, message: str, *, skip_comments: bool = True) -> Check:
    """A check that reports every line matching the regular expression `pattern`."""
    compiled = re.compile(pattern)

    def check(source: SourceFile) -> Iterator[tuple[int, str]]:
        for number, line in enumerate(source.lines, start=1):
            if skip_comments and line.lstrip().startswith("#"):
                continue
            if compiled.search(line):
                yield number, message

    return check


def findings_in(source: SourceFile, rules: Iterable[Rule]) -> list[Finding]:
    """Every breach in one file of the rules that apply to it, allowed ones included."""
    found: list[Finding] = []
    for rule in rules:
        if not rule.applies_to(source.path):
            continue
        for line, message in rule.check(source):
            key = f"{source.path}::{source.scope_at(line)}"
            found.append(Finding(rule.name, source.path, line, message, key))
    return found


@dataclass
class Report:
    """What a run found: the breaches not allowed, and the allowances that matched nothing."""

    breaches: list[Finding]
    stale_allowances: list[tuple[str, str]]  # (rule name, "path::function")

    @property
    def clean(self) -> bool:
        return not self.breaches and not self.stale_allowances

    def lines(self) -> list[str]:
        """The report as text, one line a problem."""
        out = [str(finding) for finding in self.breaches]
        out += [
            f"{key}: {rule}: allowed in tools/custom_rules.py but no longer breaks the rule; "
            "remove the allowance"
            for rule, key in self.stale_allowances
        ]
        return out


def check_sources(sources: Iterable[SourceFile], rules: list[Rule], *, whole_project: bool) -> Report:
    """Run the rules over the sources; stale allowances are only known when the whole project ran."""
    breaches: list[Finding] = []
    used: set[tuple[str, str]] = set()
    for source in sources:
        for finding in findings_in(source, rules):
            allow = next(rule.allow for rule in rules if rule.name == finding.rule)
            if finding.key in allow:
                used.add((finding.rule, finding.key))
            else:
                breaches.append(finding)
    stale: list[tuple[str, str]] = []
    if whole_project:
        stale = [(r.name, key) for r in rules for key in r.allow if (r.name, key) not in used]
    return Report(sorted(breaches, key=lambda f: (f.path, f.line, f.rule)), stale)


def project_files(root: Path) -> list[str]:
    """The project's Python files, as git knows them (tracked, or new and not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "--", "*.py"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    return sorted(
        {path for path in listed if not _matches(path, NOT_PROJECT_CODE) and (root / path).is_file()}
    )


def read_sources(root: Path, paths: Iterable[str]) -> Iterator[SourceFile]:
    """The files at `paths` (relative to `root`) as `SourceFile`s."""
    for path in paths:
        yield SourceFile(path, (root / path).read_text(encoding="utf-8"))
