/* Seeded search for a base round with a 3-fold symmetry (tools/design_search.py drives it).
 *
 * Players: the points (x, i) of Z_m x {0,1,2}, numbered i*m + x, plus f fixed points numbered
 * 3m .. 3m+f-1, f = 1 (round robins, v = 3m + 1) or f = 3 (4-RGDDs of type 3^u, v = 3m + 3,
 * groups {x_0, x_1, x_2} and the three fixed points). Round t moves (x, i) to (x + t, i).
 * The base round is asked to be invariant under s: (x, i) -> (x, i + 1), fixed point j -> j + 1
 * (mod f): it is the s-orbits of a few "free" tables. With f = 1 the table {inf, 0_0, 0_1, 0_2}
 * is given; with f = 3 one free table holds fixed point 0. Free tables hold one point of each
 * s-orbit {x_0, x_1, x_2} (x != 0 when f = 1): a value x and its coordinate c(x).
 * This is Buratti's 1-rotational construction (a design on Z_3m + inf whose resolution is
 * Z_3m-invariant) written over Z_m x Z_3.
 * The search minimises the repeated "difference classes" (see design_search.c) of the whole base
 * round by simulated annealing over two moves: swap two values between free tables, or change
 * one value's coordinate.
 *
 * usage: design_orbit_search m f seed seconds ; prints the whole base round, one table a line.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXM 64
static int m, f, n, nfree, nvals;
static int val[4 * MAXM]; /* free slot -> value x (slot 0 is the fixed point when f == 3) */
static int coord[MAXM];
static int cnt[4 * MAXM * 16];
static unsigned long long rng;

static unsigned rnd(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (unsigned)(rng >> 11);
}

/* Difference class of two players p != q (encoding as in design_search.c), -1 when forbidden. */
static int cls(int p, int q) {
    if (p >= 3 * m && q >= 3 * m) return -1;
    if (p >= 3 * m || q >= 3 * m) {
        int a = p >= 3 * m ? p - 3 * m : q - 3 * m, fin = p >= 3 * m ? q : p;
        return 12 * m + 3 * a + fin / m;
    }
    int i = p / m, x = p % m, j = q / m, y = q % m;
    if (i == j) { int d = ((y - x) % m + m) % m; if (m - d < d) d = m - d; return i * m + d; }
    if (i > j) { int t = i; i = j; j = t; t = x; x = y; y = t; }
    int d = ((y - x) % m + m) % m;
    if (d == 0 && f == 3) return -1;
    return 3 * m + (3 * i + j) * m + d;
}

static int base[MAXM * 4][4], nbase;

static void build_base(void) {
    nbase = 0;
    for (int rot = 0; rot < 3; rot++)
        for (int b = 0; b < nfree; b++) {
            for (int s = 0; s < 4; s++) {
                int slot = 4 * b + s;
                if (f == 3 && slot == 0) { base[nbase][s] = 3 * m + rot; continue; }
                int x = val[slot];
                base[nbase][s] = ((coord[x] + rot) % 3) * m + x;
            }
            nbase++;
        }
    if (f == 1) { base[nbase][0] = 3 * m; base[nbase][1] = 0; base[nbase][2] = m; base[nbase][3] = 2 * m; nbase++; }
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

int main(int argc, char **argv) {
    if (argc < 5) { fprintf(stderr, "usage: m f seed seconds\n"); return 2; }
    m = atoi(argv[1]); f = atoi(argv[2]);
    rng = strtoull(argv[3], 0, 10) * 2654435761ULL + 88172645463325252ULL;
    double seconds = atof(argv[4]);
    n = 3 * m + f;
    nvals = f == 1 ? m - 1 : m;
    int slots = f == 1 ? m - 1 : m + 1;
    if (m > MAXM || n % 4 || slots % 4 || (f != 1 && f != 3)) { fprintf(stderr, "bad sizes\n"); return 2; }
    nfree = slots / 4;
    clock_t start = clock();
    double temp = 0.3 + 0.05 * (rnd() % 8);
    for (long restart = 0;; restart++) {
        int s0 = f == 3 ? 1 : 0;
        for (int s = s0, x = f == 1 ? 1 : 0; s < slots; s++, x++) val[s] = x;
        for (int s = slots - 1; s > s0; s--) { int t = s0 + rnd() % (s - s0 + 1), x = val[s]; val[s] = val[t]; val[t] = x; }
        for (int x = 0; x < m; x++) coord[x] = rnd() % 3;
        int c = cost(), best = c;
        for (long it = 0, since = 0; c > 0 && since < 200000; it++) {
            int a = s0 + rnd() % (slots - s0), b = s0 + rnd() % (slots - s0), x = val[a], old = coord[x];
            if (rnd() % 3 == 0) coord[x] = (old + 1 + rnd() % 2) % 3;
            else if (a / 4 != b / 4) { val[a] = val[b]; val[b] = x; }
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
