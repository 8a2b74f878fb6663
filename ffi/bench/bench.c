/*
 * The C ABI against libsecp256k1, from C, per signature. Built and run by
 * ffi/bench/run.sh, which links the static libasmcrypto_ffi.a, Debian's libsecp256k1.a
 * and, with -DVENDORED_PREFIX=rustsecp256k1_v0_NN_, the libsecp256k1 that the Rust
 * secp256k1 crate vendors (secp256k1-sys builds it with prefixed symbols).
 *
 * Usage: bench [ROUNDS] [THREADS]
 *
 * 256 signatures made by libsecp256k1 from seeded keys and messages. Every library first
 * recovers all of them, and the addresses must agree. Then each round times one pass of
 * every contestant over the 256 signatures, in an order that rotates from round to round,
 * so that noise hits every contestant alike; the best round of each is kept. Ratios are
 * taken between figures of this same run, and only between rows on the same number of
 * threads.
 *
 * THREADS (default 1) is the size of the thread pool: the bench sets RAYON_NUM_THREADS to
 * it before the first call, so asmcrypto_recover_addresses spreads the batch over that many
 * threads (it splits an input only when it holds two chunks: 2 x 64 signatures). With THREADS = 1 every row runs on one thread. With more, the
 * rows are the batch and libsecp256k1 spread over the same number of threads (persistent
 * pthread workers, each taking an equal share of the 256); run.sh runs both.
 *
 * The libsecp256k1 contestants do what an Ethereum node does with it to get an address:
 * secp256k1_ecdsa_recoverable_signature_parse_compact + secp256k1_ecdsa_recover +
 * secp256k1_ec_pubkey_serialize (uncompressed) + Keccak-256 of X || Y, and for the Keccak
 * they call asmcrypto_keccak256, so both sides hash with the same code.
 */
#define _POSIX_C_SOURCE 200809L

#include "asmcrypto.h"

#include <pthread.h>
#include <secp256k1.h>
#include <secp256k1_recovery.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N 256

#ifndef SECP256K1_CONTEXT_NONE
#define SECP256K1_CONTEXT_NONE SECP256K1_CONTEXT_VERIFY
#endif

#ifdef VENDORED_PREFIX
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define V(name) CAT(VENDORED_PREFIX, name)
/* The vendored library's API: the same types as the system header's, other names. */
size_t V(context_preallocated_size)(unsigned int flags);
secp256k1_context *V(context_preallocated_create)(void *prealloc, unsigned int flags);
int V(ecdsa_recoverable_signature_parse_compact)(const secp256k1_context *ctx,
                                                 secp256k1_ecdsa_recoverable_signature *sig,
                                                 const unsigned char *input64, int recid);
int V(ecdsa_recover)(const secp256k1_context *ctx, secp256k1_pubkey *pubkey,
                     const secp256k1_ecdsa_recoverable_signature *sig,
                     const unsigned char *msghash32);
int V(ec_pubkey_serialize)(const secp256k1_context *ctx, unsigned char *output,
                           size_t *outputlen, const secp256k1_pubkey *pubkey,
                           unsigned int flags);
/* secp256k1-sys builds the C library with USE_EXTERNAL_DEFAULT_CALLBACKS and defines
   these two in Rust; a C program has to define them itself. */
void V(default_illegal_callback_fn)(const char *msg, void *data);
void V(default_error_callback_fn)(const char *msg, void *data);
void V(default_illegal_callback_fn)(const char *msg, void *data) {
    (void)data;
    fprintf(stderr, "vendored libsecp256k1: illegal argument: %s\n", msg);
    abort();
}
void V(default_error_callback_fn)(const char *msg, void *data) {
    (void)data;
    fprintf(stderr, "vendored libsecp256k1: error: %s\n", msg);
    abort();
}
static secp256k1_context *vctx;
#endif

static secp256k1_context *sctx;
static unsigned char msgs[N][32], sigs[N][65], sigs_bad[N][65], addrs[N][20], oks[N];
static volatile unsigned sink;

static uint64_t rng_state = 0x14ull;
static uint64_t rng_next(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

/* ---- contestants: one pass over the N signatures each -------------------------------- */

static void asm_batch(void) {
    sink += (unsigned)asmcrypto_recover_addresses(N, msgs[0], sigs[0], addrs[0], oks);
}

static void asm_single(void) {
    for (int i = 0; i < N; i++) sink += (unsigned)asmcrypto_recover_address(addrs[i], msgs[i], sigs[i]);
}

static void asm_pubkey(void) {
    unsigned char pub[65];
    for (int i = 0; i < N; i++) {
        sink += (unsigned)asmcrypto_ecdsa_recover(pub, sigs[i], msgs[i]);
        sink += pub[64];
    }
}

/* The wrapper's own cost: calls that the library rejects at once (v = 5), after the same
   argument checks, input copies, panic guard and output write as a real call. */
static void asm_single_rejected(void) {
    for (int i = 0; i < N; i++)
        sink += (unsigned)asmcrypto_recover_address(addrs[i], msgs[i], sigs_bad[i]);
}

static void asm_batch_rejected(void) {
    sink += (unsigned)asmcrypto_recover_addresses(N, msgs[0], sigs_bad[0], addrs[0], oks);
}

static void keccak_only(void) {
    unsigned char h[32];
    for (int i = 0; i < N; i++) {
        asmcrypto_keccak256(sigs[i], 64, h);
        sink += h[0];
    }
}

/* A libsecp256k1 pass over signatures lo..hi-1; returns its checksum for the sink. */
#define LIBSECP_PASS(name, ctx, PARSE, RECOVER, SERIALIZE, HASH)                             \
    static unsigned name##_range(int lo, int hi) {                                           \
        unsigned acc = 0;                                                                    \
        for (int i = lo; i < hi; i++) {                                                      \
            secp256k1_ecdsa_recoverable_signature rs;                                        \
            secp256k1_pubkey pk;                                                             \
            unsigned char pub[65], h[32];                                                    \
            size_t len = 65;                                                                 \
            int ok = PARSE(ctx, &rs, sigs[i], sigs[i][64]) && RECOVER(ctx, &pk, &rs, msgs[i]); \
            if (ok) {                                                                        \
                SERIALIZE(ctx, pub, &len, &pk, SECP256K1_EC_UNCOMPRESSED);                   \
                if (HASH) {                                                                  \
                    asmcrypto_keccak256(pub + 1, 64, h);                                     \
                    memcpy(addrs[i], h + 12, 20);                                            \
                }                                                                            \
            }                                                                                \
            acc += (unsigned)ok + pub[64];                                                   \
        }                                                                                    \
        return acc;                                                                          \
    }                                                                                        \
    static void name(void) { sink += name##_range(0, N); }

LIBSECP_PASS(system_address, sctx, secp256k1_ecdsa_recoverable_signature_parse_compact,
             secp256k1_ecdsa_recover, secp256k1_ec_pubkey_serialize, 1)
LIBSECP_PASS(system_pubkey, sctx, secp256k1_ecdsa_recoverable_signature_parse_compact,
             secp256k1_ecdsa_recover, secp256k1_ec_pubkey_serialize, 0)
#ifdef VENDORED_PREFIX
LIBSECP_PASS(vendored_address, vctx, V(ecdsa_recoverable_signature_parse_compact),
             V(ecdsa_recover), V(ec_pubkey_serialize), 1)
LIBSECP_PASS(vendored_pubkey, vctx, V(ecdsa_recoverable_signature_parse_compact),
             V(ecdsa_recover), V(ec_pubkey_serialize), 0)
#endif

/* ---- libsecp256k1 over a pool of persistent pthread workers -------------------------- */

static int nthreads = 1;
static pthread_barrier_t go, done;
static unsigned (*pool_job)(int lo, int hi);
static unsigned pool_acc[64];
static int pool_quit;

/* Worker k's equal share of the N signatures. */
static void pool_share(int k) {
    pool_acc[k] = pool_job(N * k / nthreads, N * (k + 1) / nthreads);
}

static void *pool_worker(void *arg) {
    int k = (int)(intptr_t)arg;
    for (;;) {
        pthread_barrier_wait(&go);
        if (pool_quit) return NULL;
        pool_share(k);
        pthread_barrier_wait(&done);
    }
}

/* One pass of f over the N signatures, split over the calling thread and nthreads - 1
   workers. */
static void pool_run(unsigned (*f)(int, int)) {
    pool_job = f;
    pthread_barrier_wait(&go);
    pool_share(0);
    pthread_barrier_wait(&done);
    for (int k = 0; k < nthreads; k++) sink += pool_acc[k];
}

static pthread_t pool_threads[64];

static void pool_start(void) {
    pthread_barrier_init(&go, NULL, (unsigned)nthreads);
    pthread_barrier_init(&done, NULL, (unsigned)nthreads);
    for (int k = 1; k < nthreads; k++)
        if (pthread_create(&pool_threads[k], NULL, pool_worker, (void *)(intptr_t)k) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            exit(1);
        }
}

static void pool_stop(void) {
    pool_quit = 1;
    pthread_barrier_wait(&go);
    for (int k = 1; k < nthreads; k++) pthread_join(pool_threads[k], NULL);
}

static void system_address_pool(void) { pool_run(system_address_range); }
#ifdef VENDORED_PREFIX
static void vendored_address_pool(void) { pool_run(vendored_address_range); }
#endif

/* The code path a row runs on. */
enum { OTHER, BATCH, SINGLE };

typedef struct {
    const char *name;
    void (*run)(void);
    int pooled; /* runs on the pool of THREADS threads (else on one thread) */
    int path;   /* BATCH: asmcrypto's batch path (asmcrypto_backend()); SINGLE: its
                   one-signature path; OTHER: libsecp256k1, or Keccak alone */
    double best, samples_sum;
} contestant;

/* THREADS = 1: every contestant, each on one thread. */
static contestant C1[] = {
    {"asmcrypto_recover_addresses (256 at once)", asm_batch, 0, BATCH, 0, 0},
    {"asmcrypto_recover_address (one at a time)", asm_single, 0, SINGLE, 0, 0},
    {"asmcrypto_ecdsa_recover (pubkey, one at a time)", asm_pubkey, 0, SINGLE, 0, 0},
    {"asmcrypto_recover_address, rejected (v = 5)", asm_single_rejected, 0, SINGLE, 0, 0},
    {"asmcrypto_recover_addresses, 256 rejected (v = 5)", asm_batch_rejected, 0, BATCH, 0, 0},
    {"asmcrypto_keccak256 (64 bytes)", keccak_only, 0, OTHER, 0, 0},
    {"system libsecp256k1: recover + serialize + keccak", system_address, 0, OTHER, 0, 0},
    {"system libsecp256k1: recover + serialize", system_pubkey, 0, OTHER, 0, 0},
#ifdef VENDORED_PREFIX
    {"vendored libsecp256k1: recover + serialize + keccak", vendored_address, 0, OTHER, 0, 0},
    {"vendored libsecp256k1: recover + serialize", vendored_pubkey, 0, OTHER, 0, 0},
#endif
};

/* THREADS > 1: the batch on the pool, and libsecp256k1 spread over as many threads. */
static contestant CP[] = {
    {"asmcrypto_recover_addresses (256 at once)", asm_batch, 1, BATCH, 0, 0},
    {"system libsecp256k1: recover + serialize + keccak", system_address_pool, 1, OTHER, 0, 0},
#ifdef VENDORED_PREFIX
    {"vendored libsecp256k1: recover + serialize + keccak", vendored_address_pool, 1, OTHER, 0, 0},
#endif
};

static contestant *C = C1;
static size_t NC = sizeof C1 / sizeof C1[0];

static int find(void (*f)(void)) {
    for (size_t i = 0; i < NC; i++)
        if (C[i].run == f) return (int)i;
    return -1;
}

/* Runs f once and checks that it produced the reference addresses. */
static void check(const char *what, void (*f)(void), unsigned char want[N][20]) {
    memset(addrs, 0, sizeof addrs);
    f();
    for (int i = 0; i < N; i++)
        if (memcmp(addrs[i], want[i], 20) != 0) {
            fprintf(stderr, "%s: signature %d gives another address\n", what, i);
            exit(1);
        }
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 60;
    nthreads = argc > 2 ? atoi(argv[2]) : 1;
    if (rounds < 1 || nthreads < 1 || nthreads > 64) {
        fprintf(stderr, "usage: bench [ROUNDS >= 1] [THREADS 1..64]\n");
        return 2;
    }
    /* Before the first asmcrypto call: the size of the pool the batch spreads over. */
    char threads_env[8];
    snprintf(threads_env, sizeof threads_env, "%d", nthreads);
    setenv("RAYON_NUM_THREADS", threads_env, 1);
    if (nthreads > 1) {
        C = CP;
        NC = sizeof CP / sizeof CP[0];
        pool_start();
    }
    sctx = secp256k1_context_create(SECP256K1_CONTEXT_SIGN | SECP256K1_CONTEXT_VERIFY);
#ifdef VENDORED_PREFIX
    vctx = V(context_preallocated_create)(
        malloc(V(context_preallocated_size)(SECP256K1_CONTEXT_NONE)), SECP256K1_CONTEXT_NONE);
#endif

    /* Seeded keys and messages, signed by the system libsecp256k1. */
    static unsigned char want[N][20];
    for (int i = 0; i < N; i++) {
        unsigned char key[32];
        do
            for (int k = 0; k < 32; k++) key[k] = (unsigned char)rng_next();
        while (!secp256k1_ec_seckey_verify(sctx, key));
        for (int k = 0; k < 32; k++) msgs[i][k] = (unsigned char)rng_next();
        secp256k1_ecdsa_recoverable_signature rs;
        int recid;
        if (!secp256k1_ecdsa_sign_recoverable(sctx, &rs, msgs[i], key, NULL, NULL)) return 1;
        secp256k1_ecdsa_recoverable_signature_serialize_compact(sctx, sigs[i], &recid, &rs);
        sigs[i][64] = (unsigned char)recid;
        memcpy(sigs_bad[i], sigs[i], 65);
        sigs_bad[i][64] = 5;
        secp256k1_pubkey pk;
        unsigned char pub[65], h[32];
        size_t len = 65;
        if (!secp256k1_ec_pubkey_create(sctx, &pk, key)) return 1;
        secp256k1_ec_pubkey_serialize(sctx, pub, &len, &pk, SECP256K1_EC_UNCOMPRESSED);
        asmcrypto_keccak256(pub + 1, 64, h);
        memcpy(want[i], h + 12, 20);
    }
    check("asmcrypto_recover_addresses", asm_batch, want);
    for (int i = 0; i < N; i++)
        if (!oks[i]) return 1;
    check("asmcrypto_recover_address", asm_single, want);
    check("system libsecp256k1", system_address, want);
#ifdef VENDORED_PREFIX
    check("vendored libsecp256k1", vendored_address, want);
#endif
    if (nthreads > 1) {
        check("system libsecp256k1 on the pool", system_address_pool, want);
#ifdef VENDORED_PREFIX
        check("vendored libsecp256k1 on the pool", vendored_address_pool, want);
#endif
    }

    for (size_t i = 0; i < NC; i++) C[i].best = 1e300;
    for (int r = 0; r < rounds; r++)
        for (size_t j = 0; j < NC; j++) {
            contestant *c = &C[(j + (size_t)r) % NC];
            double t0 = now_ns();
            c->run();
            double dt = (now_ns() - t0) / N;
            if (dt < c->best) c->best = dt;
            c->samples_sum += dt;
        }

    printf("backend: %s; %d signatures; %d rounds, interleaved; best round (mean round)\n",
           asmcrypto_backend(), N, rounds);
    printf("| contestant | path | threads | ns / signature, best | mean |\n"
           "|---|---|---|---|---|\n");
    for (size_t i = 0; i < NC; i++)
        printf("| %s | %s | %d | %.0f | %.0f |\n", C[i].name,
               C[i].path == BATCH    ? asmcrypto_backend()
               : C[i].path == SINGLE ? "single"
                                     : "-",
               C[i].pooled ? nthreads : 1, C[i].best, C[i].samples_sum / rounds);

    double batch = C[find(asm_batch)].best;
    printf("\nratios (best rounds, each against libsecp256k1 on the same threads):\n");
    if (nthreads > 1) {
        struct {
            const char *name;
            double addr;
        } refs[] = {
#ifdef VENDORED_PREFIX
            {"vendored", C[find(vendored_address_pool)].best},
#endif
            {"system", C[find(system_address_pool)].best},
        };
        for (size_t k = 0; k < sizeof refs / sizeof refs[0]; k++)
            printf("  vs %s libsecp256k1 on %d threads: batch of 256 on %d threads %.3fx\n",
                   refs[k].name, nthreads, nthreads, batch / refs[k].addr);
        printf("  (the batch splits over the pool only when it holds two chunks: 2 x 64 "
               "signatures; backend %s)\n",
               asmcrypto_backend());
        pool_stop();
        return 0;
    }
    double single = C[find(asm_single)].best;
    double pubkey = C[find(asm_pubkey)].best, rej = C[find(asm_single_rejected)].best;
    double brej = C[find(asm_batch_rejected)].best;
    struct {
        const char *name;
        double addr, pub;
    } refs[] = {
#ifdef VENDORED_PREFIX
        {"vendored", C[find(vendored_address)].best, C[find(vendored_pubkey)].best},
#endif
        {"system", C[find(system_address)].best, C[find(system_pubkey)].best},
    };
    for (size_t k = 0; k < sizeof refs / sizeof refs[0]; k++) {
        printf("  vs %s libsecp256k1, all on 1 thread: batch of 256 %.3fx, single %.3fx, pubkey "
               "(geth's ext contract) %.3fx\n",
               refs[k].name, batch / refs[k].addr, single / refs[k].addr, pubkey / refs[k].pub);
    }
    printf("  FFI wrapper, upper bound (a rejected call / a recovery): single %.2f%% "
           "(%.0f ns of %.0f), batch %.2f%% (%.0f ns of %.0f per signature)\n",
           100 * rej / single, rej, single, 100 * brej / batch, brej, batch);
    return 0;
}
