/* Seeded search for a base round that, developed mod m, seats n players at tables of 4 for m
 * rounds with no two players at one table twice (tools/design_search.py drives it).
 *
 * Players: the points (x, i) of Z_m x {0..k-1}, numbered i*m + x, and f fixed points numbered
 * k*m .. k*m+f-1 (n = k*m + f, n % 4 == 0). There are c base rounds, each a partition of the
 * players into n/4 tables; base round b shifted by t (t = 0 .. m-1) is round b*m + t + 1: it moves
 * (x, i) to (x + t, i) and keeps fixed points. Two players meet twice over the c*m rounds exactly
 * when two pairs of the base rounds share a "difference class":
 *   same coordinate i, x - y = +-d      -> class pure(i, d)     (d = m/2 is forbidden: it repeats)
 *   coordinates i < j, y - x = d         -> class mixed(i, j, d) (d = 0 forbidden when i // z ==
 *                                           j // z: the groups {x_i : i // z = g} never meet)
 *   fixed point a and coordinate i       -> class fixed(a, i)
 *   two fixed points                     -> forbidden (they would meet every round)
 * so the search minimises sum over classes of max(0, count - capacity) by swapping players between
 * tables (tabu search on the players in a conflict, with restarts).
 *
 * usage: design_search m k f c z seed seconds   (z = 0: no groups)
 * prints the base rounds, one table per line, on success; exit 1 when not found in time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAXN 256
#define MAXK 16
static int n, m, k, f, nb, nc, group, per;
static int cls[MAXN][MAXN];
static int cap[MAXN * MAXN];
static int cnt[MAXN * MAXN];
static int slot[MAXN * 8]; /* slot s = 4*block + seat holds player slot[s] */
static int ncls;
static unsigned long long rng;

static unsigned rnd(void) {
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return (unsigned)(rng >> 11);
}

static void build_classes(void) {
    int id = 0, forbidden = id++;
    cap[forbidden] = 0;
    static int pure[MAXK][MAXN], mixed[MAXK][MAXK][MAXN], fixedc[MAXN][MAXK];
    for (int i = 0; i < k; i++) for (int d = 0; d < m; d++) { pure[i][d] = id; cap[id++] = 1; }
    for (int i = 0; i < k; i++) for (int j = 0; j < k; j++) for (int d = 0; d < m; d++) {
        mixed[i][j][d] = id; cap[id++] = 1;
    }
    for (int a = 0; a < f; a++) for (int i = 0; i < k; i++) { fixedc[a][i] = id; cap[id++] = 1; }
    ncls = id;
    for (int p = 0; p < n; p++) for (int q = 0; q < n; q++) {
        int c = forbidden;
        if (p == q) c = forbidden;
        else if (p < k * m && q < k * m) {
            int i = p / m, x = p % m, j = q / m, y = q % m;
            if (i == j) {
                int d = ((y - x) % m + m) % m; if (m - d < d) d = m - d;
                c = (2 * d == m) ? forbidden : pure[i][d];
            } else {
                int a = i < j ? i : j, b = i < j ? j : i;
                int d = i < j ? ((y - x) % m + m) % m : ((x - y) % m + m) % m;
                c = (group && d == 0 && a / group == b / group) ? forbidden : mixed[a][b][d];
            }
        } else if (p >= k * m && q >= k * m) c = forbidden;
        else {
            int a = p >= k * m ? p - k * m : q - k * m, fin = p >= k * m ? q : p;
            c = fixedc[a][fin / m];
        }
        cls[p][q] = c;
    }
}

static int total_cost(void) {
    memset(cnt, 0, sizeof(int) * ncls);
    int cost = 0;
    for (int b = 0; b < nb; b++)
        for (int s = 0; s < 4; s++) for (int t = s + 1; t < 4; t++) {
            int c = cls[slot[4 * b + s]][slot[4 * b + t]];
            if (cnt[c]++ >= cap[c]) cost++;
        }
    return cost;
}

static inline int dec(int c) { return --cnt[c] >= cap[c] ? -1 : 0; }
static inline int inc(int c) { return cnt[c]++ >= cap[c] ? 1 : 0; }

/* Move player at slot s1 to s2's table and back: returns the change of cost (applied). */
static int swap_delta(int s1, int s2) {
    int b1 = s1 / 4, b2 = s2 / 4, p = slot[s1], q = slot[s2], delta = 0;
    for (int t = 4 * b1; t < 4 * b1 + 4; t++) if (t != s1) delta += dec(cls[p][slot[t]]);
    for (int t = 4 * b2; t < 4 * b2 + 4; t++) if (t != s2) delta += dec(cls[q][slot[t]]);
    slot[s1] = q; slot[s2] = p;
    for (int t = 4 * b1; t < 4 * b1 + 4; t++) if (t != s1) delta += inc(cls[q][slot[t]]);
    for (int t = 4 * b2; t < 4 * b2 + 4; t++) if (t != s2) delta += inc(cls[p][slot[t]]);
    return delta;
}

static int tabu[MAXN][MAXN * 2 + 1];

/* One tabu-search step: the best swap moving a player who is in a conflict; returns new cost. */
static int tabu_step(long it, int cost, int best) {
    static int conflicted[MAXN * 8];
    int nc = 0;
    for (int b = 0; b < nb; b++) {
        int mark[4] = {0, 0, 0, 0};
        for (int s = 0; s < 4; s++) for (int t = s + 1; t < 4; t++) {
            int c = cls[slot[4 * b + s]][slot[4 * b + t]];
            if (cnt[c] > cap[c]) mark[s] = mark[t] = 1;
        }
        for (int s = 0; s < 4; s++) if (mark[s]) conflicted[nc++] = 4 * b + s;
    }
    int best_delta = 1 << 30, choice1 = -1, choice2 = -1, ties = 0;
    for (int a = 0; a < nc; a++) {
        int s1 = conflicted[a];
        for (int s2 = 0; s2 < nc * n; s2++) {
            if (s1 / 4 == s2 / 4 || s1 / per != s2 / per) continue;
            int p = slot[s1], q = slot[s2];
            int delta = swap_delta(s1, s2);
            swap_delta(s1, s2);
            int is_tabu = tabu[p][s2 / 4] > it || tabu[q][s1 / 4] > it;
            if (is_tabu && cost + delta >= best) continue;
            if (delta < best_delta) { best_delta = delta; choice1 = s1; choice2 = s2; ties = 1; }
            else if (delta == best_delta && rnd() % ++ties == 0) { choice1 = s1; choice2 = s2; }
        }
    }
    if (choice1 < 0) return cost;
    int p = slot[choice1], q = slot[choice2];
    tabu[p][choice1 / 4] = it + 3 + rnd() % 10;
    tabu[q][choice2 / 4] = it + 3 + rnd() % 10;
    return cost + swap_delta(choice1, choice2);
}

static void print_base(clock_t start, long restart) {
    for (int b = 0; b < nb; b++)
        printf("%d %d %d %d\n", slot[4 * b], slot[4 * b + 1], slot[4 * b + 2], slot[4 * b + 3]);
    fprintf(stderr, "found after %ld restarts, %.1f s\n", restart, (double)(clock() - start) / CLOCKS_PER_SEC);
}

int main(int argc, char **argv) {
    if (argc < 8) { fprintf(stderr, "usage: m k f c z seed seconds\n"); return 2; }
    m = atoi(argv[1]); k = atoi(argv[2]); f = atoi(argv[3]); nc = atoi(argv[4]); group = atoi(argv[5]);
    rng = strtoull(argv[6], 0, 10) * 2654435761ULL + 88172645463325252ULL;
    double seconds = atof(argv[7]);
    n = k * m + f; per = n; nb = nc * n / 4;
    if (n % 4 || n > MAXN || k > MAXK || nc < 1 || nc > 8) { fprintf(stderr, "bad sizes\n"); return 2; }
    build_classes();
    clock_t start = clock();
    int overall = 1 << 30;
    for (long restart = 0;; restart++) {
        for (int b = 0; b < nc; b++) {
            int *part = slot + b * n;
            for (int s = 0; s < n; s++) part[s] = s;
            for (int s = n - 1; s > 0; s--) { int t = rnd() % (s + 1), x = part[s]; part[s] = part[t]; part[t] = x; }
        }
        memset(tabu, 0, sizeof tabu);
        int cost = total_cost(), best = cost;
        long since = 0;
        for (long it = 1; cost > 0 && since < 2000L * nb; it++) {
            cost = tabu_step(it, cost, best);
            if (cost < best) { best = cost; since = 0; } else since++;
            if ((it & 0xFF) == 0 && (double)(clock() - start) / CLOCKS_PER_SEC > seconds) break;
        }
        if (best < overall) overall = best;
        if (cost == 0) { print_base(start, restart); return 0; }
        if ((double)(clock() - start) / CLOCKS_PER_SEC > seconds) {
            fprintf(stderr, "not found; best %d after %ld restarts\n", overall, restart);
            return 1;
        }
    }
}
