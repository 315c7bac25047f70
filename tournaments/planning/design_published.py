"""Published zero-repeat schedules, stored as printed: one round a line, one table a word.

PUBLISHED[players] = (alphabet, text): the i-th character of `alphabet` is player i. Sources (see
docs/seating.md, "Where the round robins come from"):

* 32 players x 10 rounds: the social golfer solution 8-4-10 of the Wolfram Demonstrations Project,
  "Social Golfer Problem" (its 11th round, which pairs each letter with its capital, completes the
  covering and is left out: those 16 pairs are the groups of a 4-RGDD of type 2^16, never met).
* 40 players x 13 rounds: the resolvable (40, 4, 1) design printed in the survey cited there
  (JSTOR 1402466); the rounds are a base round developed mod 13 on 0-9A-C / D-P / Q-c, with d fixed.

Both were transcribed through fpvandoorn/Dagstuhl-tables (literature.md) and are checked by
tests/planning/test_designs.py (no pair twice; every pair once for the round robin).
"""

from __future__ import annotations

_LETTERS = "ABCDEFGHIJKLMNOPabcdefghijklmnop"
_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcd"

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
    40: (
        _DIGITS,
        """
        1CIL 49JK 3AFO EPVY HMWX GNSb 58Rc 67UZ 2BTa 0DQd
        02JM 5AKL 4BGP DFWZ INXY HOTc 69QS 78Va 3CUb 1ERd
        13KN 6BLM 5CDH EGXa JOYZ IPQU 7ART 89Wb 04Vc 2FSd
        24LO 7CMN 06EI FHYb KPZa DJRV 8BSU 9AXc 15QW 3GTd
        35MP 08NO 17FJ GIZc DLab EKSW 9CTV ABQY 26RX 4HUd
        46DN 19OP 28GK HJQa EMbc FLTX 0AUW BCRZ 37SY 5IVd
        57EO 2ADP 39HL IKRb FNQc GMUY 1BVX 0CSa 48TZ 6JWd
        68FP 3BDE 4AIM JLSc GOQR HNVZ 2CWY 01Tb 59Ua 7KXd
        79DG 4CEF 5BJN KMQT HPRS IOWa 03XZ 12Uc 6AVb 8LYd
        8AEH 05FG 6CKO LNRU DIST JPXb 14Ya 23QV 7BWc 9MZd
        9BFI 16GH 07LP MOSV EJTU DKYc 25Zb 34RW 8CQX ANad
        ACGJ 27HI 18DM NPTW FKUV ELQZ 36ac 45SX 09RY BObd
        0BHK 38IJ 29EN DOUX GLVW FMRa 47Qb 56TY 1ASZ CPcd
        """,
    ),
}
