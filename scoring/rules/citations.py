"""Rule citations: section numbers of the official reference (seed 000) and the other sources."""

from __future__ import annotations

RULES: dict[str, str] = {
    "1.1": "Equipment: one standard deck for 2-6 players",
    "1.3": "Setup: dealing, two cards face up, who starts",
    "1.4": "Grid layout: columns numbered from the left",
    "2.1": "Objective: lowest cumulative score wins",
    "2.2": "Card point values",
    "2.3": "The vertical pair rule (pair of 2s scores -4)",
    "2.4": "Calculating the hole score",
    "2.5": "Game completion and winner",
    "3.5": "Ending a hole",
    "4.2": "Ties in scoring",
    "5.1": "Classic Golf",
    "5.2": "Quick Golf (2x2, 6 holes)",
    "5.3": "Extended Golf (18 holes)",
    "5.4": "Jokers variant (jokers -2, 2s +2)",
    "6.1": "Official tournament format",
    "6.3": "Penalties and disqualification",
    "9.1": "House rule: horizontal pairs allowed",
    "seed 001": "Home rules: 4-, 6-, 8-, 9- and 10-card Golf, scoring guide and variants",
    "seed 002": "Card Golf guide: decks per player count, wild jokers, 8- and 9-card Golf",
    "seed 003": "Ending the hole by knocking",
    "seed 004": "Golf with the 54-card deck (jokers -2)",
    "ruleset": "A value set by this ruleset's overrides",
    "project": "Project decision (documented in docs/rules.md)",
}


def cite(key: str) -> str:
    """How an explanation line names a source: "rule 2.3", "seed 001" or "project decision"."""
    if key == "project":
        return "project decision"
    if key == "ruleset":
        return "ruleset override"
    if key[:1].isdigit():
        return f"rule {key}"
    return key
