"""Published zero-repeat schedules, stored as printed: one round a line, one table a word.

PUBLISHED[players] = (alphabet, text): the i-th character of `alphabet` is player i. Sources (see
docs/seating.md, "Where the round robins come from"):

* 32 players x 10 rounds: the social golfer solution 8-4-10 of the Wolfram Demonstrations Project,
  "Social Golfer Problem" (its 11th round, which pairs each letter with its capital, completes the
  covering and is left out: those 16 pairs are the groups of a 4-RGDD of type 2^16, never met).

Transcribed through fpvandoorn/Dagstuhl-tables (literature.md) and checked by
tests/planning/test_designs.py (no pair twice; the 16 pairs never met are disjoint).
"""

from __future__ import annotations

_LETTERS = "ABCDEFGHIJKLMNOPabcdefghijklmnop"

PUBLISHED: dict[int, tuple[str, str]] = {
    32: (
        _LETTERS,
        """
        ABCD EFGH IJKL MNOP abcd efgh ijkl mnop
        AEIm BcgH DFKp dfkP aeiM bCGh jLNo JlnO
        Aflo Bhkm DGiN aFLO bHKM CeJP cEjp dgIn
        AciL BdjK bDJk FgoP fGOp aCIl EhMn eHmN
        AgKN BElP DHIo dhiO beLp Cfjm cFJM aGkn
        AhJp BFin cDmO bfIN eGKl CdMo EgkL aHjP
        AdeF BGJo aDEf chlN iKmP CHLn bgjO IkMp
        AbnP aBNp DglM ceko fHiJ CEKO FhIj dGLm
        AGjM BeIO DhLP agJm cfKn CFkN bEio dHlp
        AHkO BfLM Dejn bFlm cGIP Cgip dEJN ahKo
        """,
    ),
}
