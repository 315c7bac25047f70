/* Seeded search for a base round with a 3-fold symmetry (tools/design_search.py drives it).
 *
 * Players: the points (x, i) of Z_m x {0,1,2}, numbered i*m + x, plus f fixed points numbered
 * 3m .. 3m+f-1. Round t moves (x, i) to (x + t, i) and keeps the fixed points.
 * The base round is asked to be invariant under s: (x, i) -> (a*x, i + 1) where a^3 = 1 mod m
 * (a = 1: Buratti's 1-rotational form over Z_3m written as Z_m x Z_3). The s-orbit of (x, 0) is
 * {(x, 0), (ax, 1), (a^2 x, 2)}, named by x.
 *  - f = 3 ("rotating", 4-RGDDs of type 3^u, v = 3m + 3): s also cycles the fixed points, the groups
 *    are {x_0, x_1, x_2} (mixed difference 0 forbidden, a = 1) and the fixed points; one free
 *    table holds fixed point 0 and three orbit representatives.
 *  - otherwise ("fixed"): s fixes each fixed point j, whose table is {j} + the whole orbit of some
 *    x_j. f = 1 with a = 1 gives the round robins v = 3m + 1; f = 2 with m even gives the
 *    4-RGDDs of type 2^u (groups: pure difference m/2 and the two fixed points).
 * The other tables are the s-orbits of free tables that hold one representative (x, c(x)),
 * c(x) in {0,1,2}, of each remaining orbit. The search minimises the repeated difference classes
 * (see design_search.c) of the whole base round by simulated annealing over two moves: swap two
 * orbit names between tables, or change one representative's coordinate.
 *
 * usage: design_orbit_search m f a seed seconds ; prints the whole base round, one table a line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXM 64
static int m, f, n, nfree, mult, rotating, s0;
static int power[3][MAXM]; /* power[c][x] = a^c x mod m */
static int val[4 * MAXM]; /* free slot -> value x (slot 0 is the fixed point when f == 3) */
static int coord[MAXM];
static int cnt[4 * MAXM * 16];
static unsigned long long rng;

static unsigned rnd(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (unsigned)(rng >> 11);
}

/* Difference class of two players p != q (encoding as in design_search.c), -1 when forbidden. */
static int cls_of(int p, int q) {
    if (p >= 3 * m && q >= 3 * m) return -1;
    if (p >= 3 * m || q >= 3 * m) {
        int a = p >= 3 * m ? p - 3 * m : q - 3 * m, fin = p >= 3 * m ? q : p;
        return 12 * m + 3 * a + fin / m;
    }
    int i = p / m, x = p % m, j = q / m, y = q % m;
    if (i == j) {
        int d = ((y - x) % m + m) % m;
        if (m - d < d) d = m - d;
        return 2 * d == m ? -1 : i * m + d; /* d = m/2 would meet twice */
    }
    if (i > j) { int t = i; i = j; j = t; t = x; x = y; y = t; }
    int d = ((y - x) % m + m) % m;
    if (d == 0 && rotating) return -1;
    return 3 * m + (3 * i + j) * m + d;
}

static short cls_table[3 * MAXM + 4][3 * MAXM + 4];
#define cls(p, q) cls_table[p][q]

static int base[MAXM * 4][4], nbase;

/* Free slot s: table (s - s0) / 4 of the free tables. Fixed mode: slot j < f is fixed point j's orbit. */
static int point(int x, int c) { return (c % 3) * m + power[c % 3][x]; }

static void build_base(void) {
    nbase = 0;
    if (!rotating)
        for (int j = 0; j < f; j++) {
            int x = val[j];
            base[nbase][0] = 3 * m + j;
            for (int c = 0; c < 3; c++) base[nbase][c + 1] = point(x, c);
            nbase++;
        }
    for (int rot = 0; rot < 3; rot++)
        for (int b = 0; b < nfree; b++) {
            for (int s = 0; s < 4; s++) {
                int slot = s0 + 4 * b + s;
                if (rotating && slot == 0) { base[nbase][s] = 3 * m + rot; continue; }
                int x = val[slot];
                base[nbase][s] = point(x, coord[x] + rot);
            }
            nbase++;
        }
}

static int cost(void) {
    build_base();
    int touched[MAXM * 4 * 6], nt = 0, c = 0;
    for (int b = 0; b < nbase; b++)
        for (int s = 0; s < 4; s++) for (int t = s + 1; t < 4; t++) {
            int k = cls(base[b][s], base[b][t]);
            if (k < 0) { c++; continue; }
            if (cnt[k]++ >= 1) c++;
            touched[nt++] = k;
        }
    for (int i = 0; i < nt; i++) cnt[touched[i]] = 0;
    return c;
}

/* Table of a slot, for "are two slots at one table". */
static int table_of(int slot) { return slot < s0 ? slot : s0 + (slot - s0) / 4 + MAXM; }

int main(int argc, char **argv) {
    if (argc < 6) { fprintf(stderr, "usage: m f a seed seconds\n"); return 2; }
    m = atoi(argv[1]); f = atoi(argv[2]); mult = atoi(argv[3]);
    rng = strtoull(argv[4], 0, 10) * 2654435761ULL + 88172645463325252ULL;
    double seconds = atof(argv[5]);
    n = 3 * m + f;
    rotating = f == 3;
    s0 = rotating ? 0 : f;
    int slots = rotating ? m + 1 : m;
    if (m > MAXM || n % 4 || (slots - s0) % 4 || (mult * mult * mult) % m != 1 % m) {
        fprintf(stderr, "bad sizes\n"); return 2;
    }
    for (int x = 0; x < m; x++) {
        power[0][x] = x; power[1][x] = (mult * x) % m; power[2][x] = (mult * mult * x) % m;
    }
    nfree = (slots - s0) / 4;
    for (int p = 0; p < n; p++) for (int q = 0; q < n; q++) cls_table[p][q] = p == q ? -1 : cls_of(p, q);
    int first = rotating ? 1 : 0; /* slot 0 holds fixed point 0 when rotating */
    clock_t start = clock();
    double temp = 0.3 + 0.05 * (rnd() % 8);
    for (long restart = 0;; restart++) {
        for (int s = first, x = 0; s < slots; s++, x++) val[s] = x;
        for (int s = slots - 1; s > first; s--) { int t = first + rnd() % (s - first + 1), x = val[s]; val[s] = val[t]; val[t] = x; }
        for (int x = 0; x < m; x++) coord[x] = rnd() % 3;
        int c = cost(), best = c;
        for (long it = 0, since = 0; c > 0 && since < 200000; it++) {
            int a = first + rnd() % (slots - first), b = first + rnd() % (slots - first), x = val[a], old = coord[x];
            if (rnd() % 3 == 0) coord[x] = (old + 1 + rnd() % 2) % 3;
            else if (table_of(a) != table_of(b)) { val[a] = val[b]; val[b] = x; }
            else continue;
            int c2 = cost();
            if (c2 <= c || (double)(rnd() & 0xFFFFF) / 0x100000 < exp((c - c2) / temp)) c = c2;
            else if (coord[x] != old) coord[x] = old;
            else { val[b] = val[a]; val[a] = x; }
            if (c < best) { best = c; since = 0; } else since++;
        }
        if (c == 0) {
            build_base();
            for (int b = 0; b < nbase; b++) printf("%d %d %d %d\n", base[b][0], base[b][1], base[b][2], base[b][3]);
            fprintf(stderr, "found after %ld restarts, %.1f s\n", restart, (double)(clock() - start) / CLOCKS_PER_SEC);
            return 0;
        }
        if ((double)(clock() - start) / CLOCKS_PER_SEC > seconds) { fprintf(stderr, "not found\n"); return 1; }
    }
}
