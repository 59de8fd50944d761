/* The hot loops of the four-shoe dealer walks (tree_eval_lanes, lanes_walk: _engine.pyx),
 * in C so that they can be built twice: for the baseline instruction set and for AVX2, the
 * better one picked when the module loads (GCC 8 or later's target_clones, which needs
 * glibc's ifunc: x86-64 Linux with glibc only; elsewhere one plain build).
 *
 * Both clones do the same IEEE multiplications and additions in the same order: AVX2
 * only does four lanes in one instruction where the baseline takes two, and it has no
 * fused multiply-add (that is FMA, not enabled here), so the doubles are the same. The
 * module is built with -ffp-contract=off (pyproject.toml), so that holds even where the
 * compiler may fuse (CFLAGS=-march=haswell, or aarch64, whose baseline has FMA).
 */
#ifndef STRATEGY_CALC_LANES_H
#define STRATEGY_CALC_LANES_H

#include <stdlib.h>  /* (defines __GLIBC__ under glibc: its loader picks the clone) */

#if defined(__GNUC__) && __GNUC__ >= 8 && !defined(__clang__) && defined(__x86_64__) \
    && !defined(__INTEL_COMPILER) && !defined(__NVCOMPILER) /* (GCC-alikes, not GCC) */ \
    && defined(__linux__) && defined(__GLIBC__) \
    && !defined(SC_NO_CLONES)  /* (-DSC_NO_CLONES: plain only) */
#define SC_CLONES __attribute__((target_clones("avx2", "default")))
#else
#define SC_CLONES
#endif

/* buf[4 i + l] = buf[4 parent(i) + l] * cf[4 comb(i) + l] for nodes 1 <= i < n, four
 * lanes l; steps: per node (4 parent(i), 4 comb(i)), two ints (tree_eval_lanes' TStep, made
 * times four once per tree: the loop then scales no index, each load one addressing mode). */
SC_CLONES
static void sc_lanes_nodes(const int *steps, int n, const double *cf, double *buf)
{
    const int *s = steps + 2, *end = steps + 2 * (long)n;
    double *dst = buf + 4;
    for (; s < end; s += 2, dst += 4) {
        const double *src = buf + s[0];
        const double *fac = cf + s[1];
        double x0 = src[0] * fac[0];
        double x1 = src[1] * fac[1];
        double x2 = src[2] * fac[2];
        double x3 = src[3] * fac[3];
        dst[0] = x0;
        dst[1] = x1;
        dst[2] = x2;
        dst[3] = x3;
    }
}

/* Four doubles, one per lane (GCC's vector extension: AVX2 adds and multiplies the four in
 * one instruction, the baseline in two; each lane's IEEE operations are the same). */
typedef double sc_v4 __attribute__((vector_size(32)));

/* out[l] = sum over entries e <= j < k of w[j] buf[4 node[j] + l], four lanes l, summed
 * as tree_eval sums one lane: entry j into accumulator (j - e) mod 4 while four are left,
 * the rest into accumulator 0, then (a0 + a1) + (a2 + a3). */
static inline __attribute__((always_inline)) void
sc_group_sum(const int *node, const double *w, int e, int k, const double *buf, double *out)
{
    sc_v4 a0 = {0.0, 0.0, 0.0, 0.0}, a1 = a0, a2 = a0, a3 = a0, s, r;
#define SC_TERM(acc, j) do { \
        __builtin_memcpy(&s, buf + 4 * (long)node[j], sizeof s); \
        acc += (sc_v4){w[j], w[j], w[j], w[j]} * s; \
    } while (0)
    while (e + 3 < k) {
        SC_TERM(a0, e);
        SC_TERM(a1, e + 1);
        SC_TERM(a2, e + 2);
        SC_TERM(a3, e + 3);
        e += 4;
    }
    while (e < k) {
        SC_TERM(a0, e);
        e += 1;
    }
#undef SC_TERM
    r = (a0 + a1) + (a2 + a3);
    __builtin_memcpy(out, &r, sizeof r);
}

/* sc_lanes_group of every group g < ngroups (its entries start[g] <= j < start[g + 1]),
 * lane l's sum into rows[l][g], in one call (an empty group's sum is 0.0, as summed). */
SC_CLONES
static void sc_lanes_groups(const int *node, const double *w, const int *start, int ngroups,
                            const double *buf, double *const *rows)
{
    double out[4];
    int g, l;
    for (g = 0; g < ngroups; g++) {
        if (start[g] == start[g + 1]) {
            for (l = 0; l < 4; l++)
                rows[l][g] = 0.0;
            continue;
        }
        sc_group_sum(node, w, start[g], start[g + 1], buf, out);
        for (l = 0; l < 4; l++)
            rows[l][g] = out[l];
    }
}

/* cf[4 i + l] = f[l][fi[i]] * d[l][di[i]] for the n factors i of a tree, four lanes l:
 * tree_eval's factor products, each lane's f and d tables apart. */
SC_CLONES
static void sc_lanes_combs_apart(const int *fi, const int *di, int n, const double *const *f,
                                 const double *const *d, double *cf)
{
    const double *f0 = f[0], *f1 = f[1], *f2 = f[2], *f3 = f[3];
    const double *d0 = d[0], *d1 = d[1], *d2 = d[2], *d3 = d[3];
    int i;
    for (i = 0; i < n; i++) {
        int a = fi[i], b = di[i];
        cf[4 * (long)i] = f0[a] * d0[b];
        cf[4 * (long)i + 1] = f1[a] * d1[b];
        cf[4 * (long)i + 2] = f2[a] * d2[b];
        cf[4 * (long)i + 3] = f3[a] * d3[b];
    }
}

#endif
