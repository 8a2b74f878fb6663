/*
 * The C ABI of asmcrypto (include/asmcrypto.h), tested from C against the static or the
 * shared library. Built and run by ffi/tests/c_abi.rs (cargo test -p asmcrypto-ffi).
 *
 * Usage: test_ffi DATA_DIR [RANDOM_COUNT [SEED]]
 *   DATA_DIR      the directory of precompile_ecrecover.jsonl, tx_senders.jsonl,
 *                 precompile_p256verify.jsonl and wycheproof_p256_sha256.jsonl
 *   RANDOM_COUNT  random signatures signed with libsecp256k1 (default 10000); needs the
 *                 program built with -DHAVE_LIBSECP256K1 (and -lsecp256k1)
 *
 * Oracles: the published vectors (precompile outputs and transaction senders), Keccak-256
 * known answers, and, with HAVE_LIBSECP256K1, the system libsecp256k1: every random and
 * spoiled signature is recovered by both, and the results must agree byte for byte,
 * failures included. The batch call is checked against the single call, from several
 * threads at once.
 *
 * P-256 (P256VERIFY, EIP-7951): the published precompile vectors and Wycheproof's P-256
 * SHA-256 cases through the precompile, the typed verify (its reason checked against a
 * model of the range checks) and the batch; hostile inputs; and the batch against the
 * single call from several threads at once.
 */
#define _POSIX_C_SOURCE 200809L

#include "asmcrypto.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_LIBSECP256K1
#include <secp256k1.h>
#include <secp256k1_recovery.h>
#endif

/* ------------------------------------------------------------------------------------ */
/* Checks                                                                                 */

static atomic_long checks;
static atomic_long failures;

#define CHECK(cond, ...)                                                                  \
    do {                                                                                  \
        atomic_fetch_add(&checks, 1);                                                     \
        if (!(cond)) {                                                                    \
            if (atomic_fetch_add(&failures, 1) < 30) {                                    \
                fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);                      \
                fprintf(stderr, __VA_ARGS__);                                             \
                fputc('\n', stderr);                                                      \
            }                                                                             \
        }                                                                                 \
    } while (0)

static int all_equal(const unsigned char *p, size_t n, unsigned char v) {
    for (size_t i = 0; i < n; i++)
        if (p[i] != v) return 0;
    return 1;
}

/* ------------------------------------------------------------------------------------ */
/* Hex and the JSON lines of the bundled data                                             */

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes 2*n hex digits into out; returns 0 on a bad digit. */
static int unhex(const char *s, size_t n, unsigned char *out) {
    for (size_t i = 0; i < n; i++) {
        int hi = hexval(s[2 * i]), lo = hexval(s[2 * i + 1]);
        if (hi < 0 || lo < 0) return 0;
        out[i] = (unsigned char)(hi << 4 | lo);
    }
    return 1;
}

/* The string value of "name" in a JSON line: start pointer, length in *len; NULL if absent. */
static const char *json_str(const char *line, const char *name, size_t *len) {
    char key[64];
    snprintf(key, sizeof key, "\"%s\": \"", name);
    const char *p = strstr(line, key);
    if (!p) return NULL;
    p += strlen(key);
    const char *end = strchr(p, '"');
    if (!end) return NULL;
    *len = (size_t)(end - p);
    return p;
}

/* The integer value of "name"; -1 if absent. */
static long json_int(const char *line, const char *name) {
    char key[64];
    snprintf(key, sizeof key, "\"%s\": ", name);
    const char *p = strstr(line, key);
    if (!p) return -1;
    return strtol(p + strlen(key), NULL, 10);
}

/* Fixed-size hex field: 1 on success. */
static int json_hex(const char *line, const char *name, unsigned char *out, size_t n) {
    size_t len;
    const char *v = json_str(line, name, &len);
    return v && len == 2 * n && unhex(v, n, out);
}

static FILE *open_data(const char *dir, const char *file) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(2);
    }
    return f;
}

/* ------------------------------------------------------------------------------------ */
/* Small helpers                                                                          */

static void address_of_pubkey65(unsigned char addr[20], const unsigned char pub[65]) {
    unsigned char h[32];
    asmcrypto_keccak256(pub + 1, 64, h);
    memcpy(addr, h + 12, 20);
}

/* splitmix64: a seeded generator, so that every run tests the same signatures. */
static uint64_t rng_state;
static uint64_t rng_next(void) {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static void rng_bytes(unsigned char *p, size_t n) {
    for (size_t i = 0; i < n; i++) p[i] = (unsigned char)rng_next();
}

/* ------------------------------------------------------------------------------------ */
/* Keccak-256 known answers                                                               */

static void test_keccak(void) {
    static const char *EMPTY = "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470";
    static const char *ABC = "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45";
    unsigned char want[32], got[32];

    unhex(EMPTY, 32, want);
    memset(got, 0xAA, 32);
    asmcrypto_keccak256((const unsigned char *)"", 0, got);
    CHECK(memcmp(got, want, 32) == 0, "keccak256(\"\")");
    memset(got, 0xAA, 32);
    asmcrypto_keccak256(NULL, 0, got);
    CHECK(memcmp(got, want, 32) == 0, "keccak256(NULL, 0) must be keccak256(\"\")");

    unhex(ABC, 32, want);
    asmcrypto_keccak256((const unsigned char *)"abc", 3, got);
    CHECK(memcmp(got, want, 32) == 0, "keccak256(\"abc\")");
    /* out overlapping data */
    unsigned char buf[32] = {'a', 'b', 'c'};
    asmcrypto_keccak256(buf, 3, buf);
    CHECK(memcmp(buf, want, 32) == 0, "keccak256 with out == data");

    /* NULL out: nothing happens (and no crash). */
    asmcrypto_keccak256((const unsigned char *)"abc", 3, NULL);
    asmcrypto_keccak256(NULL, 0, NULL);
    /* NULL data with len > 0, or a length no buffer can have: zero-filled. */
    memset(got, 0xAA, 32);
    asmcrypto_keccak256(NULL, 5, got);
    CHECK(all_equal(got, 32, 0), "keccak256(NULL, 5) zero-fills");
    memset(got, 0xAA, 32);
    asmcrypto_keccak256(buf, SIZE_MAX, got);
    CHECK(all_equal(got, 32, 0), "keccak256(len SIZE_MAX) zero-fills");
    memset(got, 0xAA, 32);
    asmcrypto_keccak256(buf, (size_t)PTRDIFF_MAX + 1, got);
    CHECK(all_equal(got, 32, 0), "keccak256(len PTRDIFF_MAX+1) zero-fills");
}

/* ------------------------------------------------------------------------------------ */
/* The published precompile vectors                                                       */

/* 1 if the 32-byte v word at input[32..64] (zero-padded input) is exactly 27 or 28. */
static int v_word_ok(const unsigned char in128[128]) {
    return all_equal(in128 + 32, 31, 0) && (in128[63] == 27 || in128[63] == 28);
}

static void test_precompile_vectors(const char *dir) {
    FILE *f = open_data(dir, "precompile_ecrecover.jsonl");
    char *line = NULL;
    size_t cap = 0;
    int count = 0, nonempty = 0;
    while (getline(&line, &cap, f) > 0) {
        size_t ilen, elen;
        const char *ih = json_str(line, "input", &ilen);
        const char *eh = json_str(line, "expected", &elen);
        CHECK(ih && eh && ilen % 2 == 0 && (elen == 0 || elen == 64), "bad vector line %d",
              count);
        if (!ih || !eh) continue;
        size_t len = ilen / 2;
        unsigned char *input = malloc(len ? len : 1);
        unsigned char expected[32], out[32];
        CHECK(unhex(ih, len, input) && unhex(eh, elen / 2, expected), "hex in line %d", count);
        memset(out, 0xAA, 32);
        size_t r = asmcrypto_ecrecover_precompile(len ? input : NULL, len, out);
        if (elen == 0) {
            CHECK(r == 0 && all_equal(out, 32, 0), "precompile vector %d: want empty, got %zu",
                  count, r);
        } else {
            nonempty++;
            CHECK(r == 32 && memcmp(out, expected, 32) == 0, "precompile vector %d", count);
        }

        /* The same signature through the other entry points must agree. */
        unsigned char in128[128] = {0};
        memcpy(in128, input, len < 128 ? len : 128);
        if (v_word_ok(in128)) {
            unsigned char sig[65], addr[20], pub[65], paddr[20];
            memcpy(sig, in128 + 64, 64);
            sig[64] = (unsigned char)(in128[63] - 27);
            int ra = asmcrypto_recover_address(addr, in128, sig);
            int rp = asmcrypto_ecdsa_recover(pub, sig, in128);
            CHECK(ra == (elen != 0) && rp == ra, "vector %d: single calls disagree", count);
            if (ra && rp) {
                address_of_pubkey65(paddr, pub);
                CHECK(memcmp(addr, expected + 12, 20) == 0 && memcmp(paddr, addr, 20) == 0 &&
                          pub[0] == 0x04,
                      "vector %d: address via recover_address / ecdsa_recover", count);
            }
            sig[64] = (unsigned char)(sig[64] + 27);
            unsigned char addr27[20];
            CHECK(asmcrypto_recover_address(addr27, in128, sig) == ra &&
                      (!ra || memcmp(addr27, addr, 20) == 0),
                  "vector %d: v = 27/28 differs from v = 0/1", count);
        }
        free(input);
        count++;
    }
    free(line);
    fclose(f);
    CHECK(count >= 100 && nonempty > 0, "only %d precompile vectors read", count);
    printf("precompile vectors: %d (%d with output)\n", count, nonempty);
}

/* ------------------------------------------------------------------------------------ */
/* Real transactions                                                                      */

typedef struct {
    unsigned char msg[32];
    unsigned char sig[65]; /* r || s || recid (0 or 1) */
    unsigned char addr[20];
} tx_t;

static tx_t *txs;
static size_t ntx;

static void load_txs(const char *dir) {
    FILE *f = open_data(dir, "tx_senders.jsonl");
    char *line = NULL;
    size_t cap = 0, alloc = 0;
    while (getline(&line, &cap, f) > 0) {
        if (ntx == alloc) {
            alloc = alloc ? 2 * alloc : 256;
            txs = realloc(txs, alloc * sizeof *txs);
        }
        tx_t *t = &txs[ntx];
        long recid = json_int(line, "recid");
        int ok = json_hex(line, "hash", t->msg, 32) && json_hex(line, "r", t->sig, 32) &&
                 json_hex(line, "s", t->sig + 32, 32) &&
                 json_hex(line, "address", t->addr, 20) && (recid == 0 || recid == 1);
        CHECK(ok, "bad tx line %zu", ntx);
        if (!ok) continue;
        t->sig[64] = (unsigned char)recid;
        ntx++;
    }
    free(line);
    fclose(f);
    CHECK(ntx >= 100, "only %zu transactions read", ntx);
    if (ntx == 0) {
        fprintf(stderr, "no transactions in %s/tx_senders.jsonl\n", dir);
        exit(1);
    }
}

static void test_txs(void) {
    unsigned char *msgs = malloc(ntx * 32), *sigs = malloc(ntx * 65);
    unsigned char *addrs = malloc(ntx * 20), *oks = malloc(ntx);
    for (size_t i = 0; i < ntx; i++) {
        const tx_t *t = &txs[i];
        unsigned char addr[20], pub[65], paddr[20], sig[65];
        CHECK(asmcrypto_recover_address(addr, t->msg, t->sig) == 1 &&
                  memcmp(addr, t->addr, 20) == 0,
              "tx %zu: recover_address", i);
        memcpy(sig, t->sig, 65);
        sig[64] += 27;
        CHECK(asmcrypto_recover_address(addr, t->msg, sig) == 1 &&
                  memcmp(addr, t->addr, 20) == 0,
              "tx %zu: recover_address with v = 27/28", i);
        CHECK(asmcrypto_ecdsa_recover(pub, t->sig, t->msg) == 1 && pub[0] == 0x04,
              "tx %zu: ecdsa_recover", i);
        address_of_pubkey65(paddr, pub);
        CHECK(memcmp(paddr, t->addr, 20) == 0, "tx %zu: keccak(ecdsa_recover)", i);

        unsigned char in[128] = {0}, out[32];
        memcpy(in, t->msg, 32);
        in[63] = (unsigned char)(27 + t->sig[64]);
        memcpy(in + 64, t->sig, 64);
        CHECK(asmcrypto_ecrecover_precompile(in, 128, out) == 32 && all_equal(out, 12, 0) &&
                  memcmp(out + 12, t->addr, 20) == 0,
              "tx %zu: precompile", i);

        memcpy(msgs + 32 * i, t->msg, 32);
        memcpy(sigs + 65 * i, t->sig, 65);
    }
    memset(oks, 0xAA, ntx);
    size_t got = asmcrypto_recover_addresses(ntx, msgs, sigs, addrs, oks);
    CHECK(got == ntx, "batch of all transactions: %zu of %zu", got, ntx);
    for (size_t i = 0; i < ntx; i++)
        CHECK(oks[i] == 1 && memcmp(addrs + 20 * i, txs[i].addr, 20) == 0, "batch tx %zu", i);
    free(msgs);
    free(sigs);
    free(addrs);
    free(oks);
    printf("transactions: %zu\n", ntx);
}

/* ------------------------------------------------------------------------------------ */
/* Hostile inputs                                                                         */

static void test_hostile(void) {
    unsigned char msg[32], sig[65], pub[65], addr[20], out[32];

    /* All zero, all 0xff. */
    for (int fill = 0; fill < 2; fill++) {
        memset(msg, fill ? 0xff : 0, 32);
        memset(sig, fill ? 0xff : 0, 65);
        memset(pub, 0xAA, 65);
        CHECK(asmcrypto_ecdsa_recover(pub, sig, msg) == 0 && all_equal(pub, 65, 0),
              "ecdsa_recover of all-%s", fill ? "ff" : "zero");
        memset(addr, 0xAA, 20);
        CHECK(asmcrypto_recover_address(addr, msg, sig) == 0 && all_equal(addr, 20, 0),
              "recover_address of all-%s", fill ? "ff" : "zero");
        unsigned char in[128];
        memset(in, fill ? 0xff : 0, 128);
        memset(out, 0xAA, 32);
        CHECK(asmcrypto_ecrecover_precompile(in, 128, out) == 0 && all_equal(out, 32, 0),
              "precompile of all-%s", fill ? "ff" : "zero");
    }

    /* Every recovery id byte on real signatures (r >= 2^129 > p - n, so 2 and 3 fail). */
    for (size_t i = 0; i < ntx; i += 7) {
        const tx_t *t = &txs[i];
        CHECK(!all_equal(t->sig, 15, 0), "tx %zu has r < 2^136", i);
        unsigned char a_par[2][20];
        int ok_par[2];
        for (int v = 0; v < 256; v++) {
            memcpy(sig, t->sig, 64);
            sig[64] = (unsigned char)v;
            memset(pub, 0xAA, 65);
            int rp = asmcrypto_ecdsa_recover(pub, sig, t->msg);
            if (v >= 2) CHECK(rp == 0 && all_equal(pub, 65, 0), "tx %zu recid %d", i, v);
            memset(addr, 0xAA, 20);
            int ra = asmcrypto_recover_address(addr, t->msg, sig);
            if (v == 0 || v == 1) {
                unsigned char paddr[20];
                address_of_pubkey65(paddr, pub);
                CHECK(ra == rp && (!ra || memcmp(addr, paddr, 20) == 0),
                      "tx %zu v %d: recover_address vs ecdsa_recover", i, v);
                ok_par[v] = ra;
                memcpy(a_par[v], addr, 20);
            } else if (v == 27 || v == 28) {
                CHECK(ra == ok_par[v - 27] && memcmp(addr, a_par[v - 27], 20) == 0,
                      "tx %zu: v %d differs from v %d", i, v, v - 27);
            } else {
                CHECK(ra == 0 && all_equal(addr, 20, 0), "tx %zu: v %d accepted", i, v);
            }
        }
        CHECK(ok_par[t->sig[64]] && memcmp(a_par[t->sig[64]], t->addr, 20) == 0,
              "tx %zu: the signed parity", i);
    }

    /* Outputs overlapping inputs. */
    {
        const tx_t *t = &txs[0];
        unsigned char want[65], buf[65];
        CHECK(asmcrypto_ecdsa_recover(want, t->sig, t->msg) == 1, "tx 0");
        memcpy(buf, t->sig, 65);
        CHECK(asmcrypto_ecdsa_recover(buf, buf, t->msg) == 1 && memcmp(buf, want, 65) == 0,
              "ecdsa_recover with pubkey_out == sig");
        unsigned char m[32];
        memcpy(m, t->msg, 32);
        CHECK(asmcrypto_recover_address(m, m, t->sig) == 1 && memcmp(m, t->addr, 20) == 0,
              "recover_address with addr_out == msg");
        unsigned char in[128] = {0};
        memcpy(in, t->msg, 32);
        in[63] = (unsigned char)(27 + t->sig[64]);
        memcpy(in + 64, t->sig, 64);
        CHECK(asmcrypto_ecrecover_precompile(in, 128, in) == 32 && all_equal(in, 12, 0) &&
                  memcmp(in + 12, t->addr, 20) == 0,
              "precompile with out == input");
    }

    /* Short and long precompile inputs: a valid input cut at every length, and extended
       with garbage. Below 128 bytes the input must act as if zero-padded. */
    {
        const tx_t *t = &txs[1];
        unsigned char full[300];
        rng_bytes(full, sizeof full);
        memset(full, 0, 128);
        memcpy(full, t->msg, 32);
        full[63] = (unsigned char)(27 + t->sig[64]);
        memcpy(full + 64, t->sig, 64);
        for (size_t len = 0; len <= sizeof full; len++) {
            unsigned char *exact = malloc(len ? len : 1), padded[128] = {0}, want[32];
            memcpy(exact, full, len);
            memcpy(padded, full, len < 128 ? len : 128);
            size_t rw = asmcrypto_ecrecover_precompile(padded, 128, want);
            memset(out, 0xAA, 32);
            size_t r = asmcrypto_ecrecover_precompile(exact, len, out);
            CHECK(r == rw && memcmp(out, want, 32) == 0, "precompile of %zu bytes", len);
            if (len < 64) CHECK(r == 0, "precompile of %zu bytes (no v)", len);
            if (len >= 128)
                CHECK(r == 32 && memcmp(out + 12, t->addr, 20) == 0, "precompile %zu", len);
            free(exact);
        }
        /* v words that are not exactly 27 or 28. */
        for (int k = 0; k < 33; k++) {
            unsigned char in[128];
            memcpy(in, full, 128);
            if (k < 31)
                in[32 + k] = 1; /* a high byte of the v word */
            else
                in[63] = k == 31 ? 29 : 26;
            memset(out, 0xAA, 32);
            CHECK(asmcrypto_ecrecover_precompile(in, 128, out) == 0 && all_equal(out, 32, 0),
                  "precompile v word variant %d", k);
        }
    }

    /* NULL pointers. */
    {
        const tx_t *t = &txs[2];
        /* The output, the signature, the message, then all three NULL: 0, and a zeroed
           output where there is one. */
        static const char *const null_arg[4] = {"out", "sig", "msg", "all"};
        for (int k = 0; k < 4; k++) {
            int null_out = k == 0 || k == 3;
            const unsigned char *sig = k == 1 || k == 3 ? NULL : t->sig;
            const unsigned char *msg = k == 2 || k == 3 ? NULL : t->msg;
            memset(pub, 0xAA, 65);
            memset(addr, 0xAA, 20);
            CHECK(asmcrypto_ecdsa_recover(null_out ? NULL : pub, sig, msg) == 0 &&
                      (null_out || all_equal(pub, 65, 0)),
                  "ecdsa_recover NULL %s", null_arg[k]);
            CHECK(asmcrypto_recover_address(null_out ? NULL : addr, msg, sig) == 0 &&
                      (null_out || all_equal(addr, 20, 0)),
                  "recover_address NULL %s", null_arg[k]);
        }

        unsigned char in[128] = {0};
        CHECK(asmcrypto_ecrecover_precompile(in, 128, NULL) == 0, "precompile NULL out");
        memset(out, 0xAA, 32);
        CHECK(asmcrypto_ecrecover_precompile(NULL, 0, out) == 0 && all_equal(out, 32, 0),
              "precompile of NULL, 0 (the empty input)");
        memset(out, 0xAA, 32);
        CHECK(asmcrypto_ecrecover_precompile(NULL, 128, out) == 0 && all_equal(out, 32, 0),
              "precompile NULL input, len 128");
        memset(out, 0xAA, 32);
        CHECK(asmcrypto_ecrecover_precompile(in, SIZE_MAX, out) == 0 && all_equal(out, 32, 0),
              "precompile len SIZE_MAX");

        /* The batch: NULL with n = 0 is the empty batch; any NULL with n > 0, or an n whose
           buffers cannot exist, returns 0 and writes nothing. */
        unsigned char a2[40], o2[2];
        memset(a2, 0xAA, sizeof a2);
        memset(o2, 0xAA, sizeof o2);
        CHECK(asmcrypto_recover_addresses(0, NULL, NULL, NULL, NULL) == 0, "batch n 0 NULL");
        CHECK(asmcrypto_recover_addresses(0, t->msg, t->sig, a2, o2) == 0 &&
                  all_equal(a2, 40, 0xAA) && all_equal(o2, 2, 0xAA),
              "batch n 0");
        const unsigned char *m = t->msg, *s = t->sig;
        CHECK(asmcrypto_recover_addresses(1, NULL, s, a2, o2) == 0, "batch NULL msgs");
        CHECK(asmcrypto_recover_addresses(1, m, NULL, a2, o2) == 0, "batch NULL sigs");
        CHECK(asmcrypto_recover_addresses(1, m, s, NULL, o2) == 0, "batch NULL addrs");
        CHECK(asmcrypto_recover_addresses(1, m, s, a2, NULL) == 0, "batch NULL oks");
        size_t huge[] = {SIZE_MAX, SIZE_MAX / 65 + 1, (size_t)PTRDIFF_MAX / 65 + 1,
                         SIZE_MAX / 20 + 1, SIZE_MAX / 32 + 1};
        for (size_t k = 0; k < sizeof huge / sizeof huge[0]; k++)
            CHECK(asmcrypto_recover_addresses(huge[k], m, s, a2, o2) == 0, "batch n %zu",
                  huge[k]);
        CHECK(all_equal(a2, 40, 0xAA) && all_equal(o2, 2, 0xAA), "a refused batch wrote");
        CHECK(asmcrypto_recover_addresses(1, m, s, a2, o2) == 1 &&
                  memcmp(a2, t->addr, 20) == 0 && o2[0] == 1 && all_equal(a2 + 20, 20, 0xAA) &&
                  o2[1] == 0xAA,
              "batch of one");
    }

    /* The backend string. */
    {
        const char *b = asmcrypto_backend();
        CHECK(b && (strcmp(b, "avx512-ifma") == 0 || strcmp(b, "avx512f") == 0 ||
                    strcmp(b, "scalar") == 0),
              "backend %s", b ? b : "(NULL)");
        CHECK(asmcrypto_backend() == b, "backend is one static string");
    }
}

/* ------------------------------------------------------------------------------------ */
/* The batch call against the single call, from several threads at once                  */

#define POOL 3200
#define BIG_BATCH 3000
#define THREADS 4

static unsigned char pool_msg[POOL][32], pool_sig[POOL][65], pool_addr[POOL][20];
static int pool_ok[POOL];

/* Real signatures, and real signatures spoiled in ways that fail or recover another key. */
static void build_pool(void) {
    for (size_t k = 0; k < POOL; k++) {
        const tx_t *t = &txs[k % ntx];
        memcpy(pool_msg[k], t->msg, 32);
        memcpy(pool_sig[k], t->sig, 65);
        switch ((k / ntx + k) % 11) {
        case 0: pool_sig[k][64] += 27; break;
        case 1: memset(pool_sig[k], 0, 32); break;                 /* r = 0 */
        case 2: memset(pool_sig[k] + 32, 0, 32); break;            /* s = 0 */
        case 3: pool_sig[k][64] = (unsigned char)(2 + k % 254); break; /* bad v */
        case 4: memset(pool_sig[k], 0xff, 32); break;              /* r >= n */
        case 5: pool_msg[k][k % 32] ^= (unsigned char)(1u << (k % 8)); break; /* other key */
        case 6: pool_sig[k][64] ^= 1; break;                       /* other parity */
        case 7: pool_sig[k][(k * 7) % 64] ^= 0x10; break;          /* r or s changed */
        default: break;                                            /* unchanged */
        }
        memset(pool_addr[k], 0xAA, 20);
        pool_ok[k] = asmcrypto_recover_address(pool_addr[k], pool_msg[k], pool_sig[k]);
    }
}

/* Recovers pool[off .. off+n] with the batch call and compares every entry with the single
   call; the entry past the end must stay untouched. */
static void batch_against_single(size_t off, size_t n) {
    unsigned char *msgs = calloc(32 * n + 1, 1), *sigs = calloc(65 * n + 1, 1);
    unsigned char *addrs = malloc(20 * (n + 1)), *oks = malloc(n + 1);
    for (size_t i = 0; i < n; i++) {
        memcpy(msgs + 32 * i, pool_msg[off + i], 32);
        memcpy(sigs + 65 * i, pool_sig[off + i], 65);
    }
    memset(addrs, 0xAA, 20 * (n + 1));
    memset(oks, 0xAA, n + 1);
    size_t got = asmcrypto_recover_addresses(n, msgs, sigs, addrs, oks);
    size_t want = 0;
    for (size_t i = 0; i < n; i++) {
        want += (size_t)pool_ok[off + i];
        CHECK(oks[i] == pool_ok[off + i] && memcmp(addrs + 20 * i, pool_addr[off + i], 20) == 0,
              "batch n %zu offset %zu entry %zu differs from the single call", n, off, i);
    }
    CHECK(got == want, "batch n %zu returned %zu, want %zu", n, got, want);
    CHECK(all_equal(addrs + 20 * n, 20, 0xAA) && oks[n] == 0xAA, "batch n %zu wrote past n", n);
    free(msgs);
    free(sigs);
    free(addrs);
    free(oks);
}

static void *batch_thread(void *arg) {
    size_t id = (size_t)(uintptr_t)arg;
    for (size_t n = 0; n <= 70; n++) batch_against_single((id * 37 + n * 13) % (POOL - n), n);
    batch_against_single(id * 29, BIG_BATCH);
    for (size_t j = 0; j <= 70; j++) {
        size_t n = 70 - j;
        batch_against_single((id * 11 + n * 5) % (POOL - n), n);
    }
    return NULL;
}

static void test_batch_threads(void) {
    build_pool();
    int valid = 0;
    for (size_t k = 0; k < POOL; k++) valid += pool_ok[k];
    CHECK(valid > POOL / 4 && valid < POOL, "pool: %d of %d valid", valid, POOL);
    pthread_t th[THREADS];
    for (size_t i = 0; i < THREADS; i++)
        CHECK(pthread_create(&th[i], NULL, batch_thread, (void *)(uintptr_t)i) == 0, "thread");
    for (size_t i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
    printf("batch vs single: n = 0..70 (twice) and %d, %d threads at once, pool %d (%d valid)\n",
           BIG_BATCH, THREADS, POOL, valid);
}

/* ------------------------------------------------------------------------------------ */
/* P-256 (P256VERIFY, EIP-7951)                                                           */

/* P-256's group order n and field prime p, big-endian. */
static const unsigned char P256_N[32] = {
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17, 0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51};
static const unsigned char P256_P[32] = {
    0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

typedef struct {
    unsigned char in[160]; /* hash || r || s || qx || qy */
    int valid;
} p256_vec_t;

static p256_vec_t *p256v;
static size_t np256;

/* The reason the model of EIP-7951's range checks gives: the code of the first range check
   that fails, else -2 (the key check and the arithmetic decide). */
static int p256_range_reason(const unsigned char in[160]) {
    const unsigned char *r = in + 32, *s = in + 64, *qx = in + 96, *qy = in + 128;
    if (all_equal(r, 32, 0) || memcmp(r, P256_N, 32) >= 0) return ASMCRYPTO_P256_INVALID_R;
    if (all_equal(s, 32, 0) || memcmp(s, P256_N, 32) >= 0) return ASMCRYPTO_P256_INVALID_S;
    if (memcmp(qx, P256_P, 32) >= 0 || memcmp(qy, P256_P, 32) >= 0)
        return ASMCRYPTO_P256_KEY_COORDINATE_OUT_OF_RANGE;
    return -2;
}

/* Reads one of the P-256 files: "input" (160 bytes) and `field` ("" or the 0...01 word). */
static void p256_load_file(const char *dir, const char *file, const char *field, size_t min) {
    FILE *f = open_data(dir, file);
    char *line = NULL;
    size_t cap = 0, alloc = np256, count = 0;
    while (getline(&line, &cap, f) > 0) {
        if (np256 == alloc) {
            alloc = alloc ? 2 * alloc : 1024;
            p256v = realloc(p256v, alloc * sizeof *p256v);
        }
        p256_vec_t *v = &p256v[np256];
        size_t elen;
        const char *eh = json_str(line, field, &elen);
        unsigned char expected[32];
        int ok = json_hex(line, "input", v->in, 160) && eh && (elen == 0 || elen == 64) &&
                 unhex(eh, elen / 2, expected) &&
                 (elen == 0 || (all_equal(expected, 31, 0) && expected[31] == 1));
        CHECK(ok, "%s: bad line %zu", file, count);
        count++;
        if (!ok) continue;
        v->valid = elen != 0;
        np256++;
    }
    free(line);
    fclose(f);
    CHECK(count >= min, "%s: only %zu vectors", file, count);
}

static void test_p256_vectors(const char *dir) {
    p256_load_file(dir, "precompile_p256verify.jsonl", "expected", 200);
    size_t first_file = np256;
    p256_load_file(dir, "wycheproof_p256_sha256.jsonl", "expected_precompile", 400);
    if (np256 == 0) {
        fprintf(stderr, "no P-256 vectors in %s\n", dir);
        exit(1);
    }
    long reasons[7] = {0}; /* by reason + 1 */
    size_t valid = 0;
    unsigned char *flat = malloc(np256 * 160), *oks = malloc(np256 + 1);
    for (size_t i = 0; i < np256; i++) {
        const p256_vec_t *v = &p256v[i];
        unsigned char out[32];
        memset(out, 0xAA, 32);
        size_t r = asmcrypto_p256verify_precompile(v->in, 160, out);
        if (v->valid)
            CHECK(r == 32 && all_equal(out, 31, 0) && out[31] == 1, "p256 vector %zu", i);
        else
            CHECK(r == 0 && all_equal(out, 32, 0), "p256 vector %zu: want empty, got %zu", i,
                  r);
        valid += (size_t)v->valid;

        int reason = 99;
        int ok = asmcrypto_p256_verify(v->in, v->in + 32, v->in + 96, &reason);
        CHECK(ok == v->valid, "p256 vector %zu: verify %d", i, ok);
        CHECK((reason == ASMCRYPTO_P256_OK) == v->valid, "p256 vector %zu: reason %d", i,
              reason);
        int model = p256_range_reason(v->in);
        if (model != -2)
            CHECK(reason == model, "p256 vector %zu: reason %d, the range checks say %d", i,
                  reason, model);
        else if (!v->valid)
            CHECK(reason == ASMCRYPTO_P256_KEY_NOT_ON_CURVE || reason == ASMCRYPTO_P256_MISMATCH,
                  "p256 vector %zu: reason %d", i, reason);
        if (all_equal(v->in + 96, 64, 0) && model == -2)
            CHECK(reason == ASMCRYPTO_P256_KEY_NOT_ON_CURVE, "p256 vector %zu: key (0, 0)", i);
        if (reason >= -1 && reason <= 5) reasons[reason + 1]++;
        /* The same with no reason wanted. */
        CHECK(asmcrypto_p256_verify(v->in, v->in + 32, v->in + 96, NULL) == v->valid,
              "p256 vector %zu: verify without reason_out", i);
        /* One byte short, one byte long: the empty output. */
        unsigned char longer[161];
        memcpy(longer, v->in, 160);
        longer[160] = 0;
        CHECK(asmcrypto_p256verify_precompile(v->in, 159, out) == 0 &&
                  asmcrypto_p256verify_precompile(longer, 161, out) == 0,
              "p256 vector %zu at 159 / 161 bytes", i);
        memcpy(flat + 160 * i, v->in, 160);
    }
    /* Every vector in one batch. */
    memset(oks, 0xAA, np256 + 1);
    size_t got = asmcrypto_p256_verify_batch(np256, flat, oks);
    CHECK(got == valid, "p256 batch of all vectors: %zu valid, want %zu", got, valid);
    for (size_t i = 0; i < np256; i++)
        CHECK(oks[i] == p256v[i].valid, "p256 batch entry %zu", i);
    CHECK(oks[np256] == 0xAA, "p256 batch wrote past n");
    CHECK(reasons[ASMCRYPTO_P256_OK + 1] > 0 && reasons[ASMCRYPTO_P256_INVALID_R + 1] > 0 &&
              reasons[ASMCRYPTO_P256_INVALID_S + 1] > 0 &&
              reasons[ASMCRYPTO_P256_KEY_NOT_ON_CURVE + 1] > 0 &&
              reasons[ASMCRYPTO_P256_MISMATCH + 1] > 0 && reasons[0] == 0,
          "p256 vectors: a reason never seen, or FAILED seen");
    free(flat);
    free(oks);
    printf("p256 vectors: %zu (%zu + %zu; %zu valid; reasons invalid r %ld, invalid s %ld, "
           "key not on curve %ld, mismatch %ld)\n",
           np256, first_file, np256 - first_file, valid, reasons[ASMCRYPTO_P256_INVALID_R + 1],
           reasons[ASMCRYPTO_P256_INVALID_S + 1], reasons[ASMCRYPTO_P256_KEY_NOT_ON_CURVE + 1],
           reasons[ASMCRYPTO_P256_MISMATCH + 1]);
}

/* out = n - a (32-byte big-endian). */
static void p256_negate_mod_n(unsigned char out[32], const unsigned char a[32]) {
    int borrow = 0;
    for (int i = 31; i >= 0; i--) {
        int t = (int)P256_N[i] - a[i] - borrow;
        borrow = t < 0;
        out[i] = (unsigned char)(t + (borrow ? 256 : 0));
    }
}

/* Verifies in (160 bytes) through all three entry points; they must agree with each other
   and with want_reason. */
static void p256_expect(const char *what, const unsigned char in[160], int want_reason) {
    int want_ok = want_reason == ASMCRYPTO_P256_OK;
    int reason = 99;
    unsigned char out[32], ok[2] = {0xAA, 0xAA};
    memset(out, 0xAA, 32);
    CHECK(asmcrypto_p256_verify(in, in + 32, in + 96, &reason) == want_ok &&
              reason == want_reason,
          "p256 %s: reason %d, want %d", what, reason, want_reason);
    size_t r = asmcrypto_p256verify_precompile(in, 160, out);
    CHECK(want_ok ? (r == 32 && all_equal(out, 31, 0) && out[31] == 1)
                  : (r == 0 && all_equal(out, 32, 0)),
          "p256 %s: precompile %zu", what, r);
    CHECK(asmcrypto_p256_verify_batch(1, in, ok) == (size_t)want_ok && ok[0] == want_ok &&
              ok[1] == 0xAA,
          "p256 %s: batch of one", what);
}

static void test_p256_hostile(void) {
    const p256_vec_t *good = NULL;
    for (size_t i = 0; i < np256 && !good; i++)
        if (p256v[i].valid && !all_equal(p256v[i].in + 32, 1, 0xff)) good = &p256v[i];
    CHECK(good != NULL, "no valid P-256 vector");
    if (!good) return;
    unsigned char in[160], out[32];
    int checks_before = (int)atomic_load(&checks);

    /* All zero, all 0xff. */
    memset(in, 0, 160);
    p256_expect("all zero", in, ASMCRYPTO_P256_INVALID_R);
    memset(in, 0xff, 160);
    p256_expect("all 0xff", in, ASMCRYPTO_P256_INVALID_R);

    /* Each check on a valid input, in EIP-7951's order. */
    p256_expect("the valid vector", good->in, ASMCRYPTO_P256_OK);
    memcpy(in, good->in, 160);
    p256_negate_mod_n(in + 64, good->in + 64);
    p256_expect("s -> n - s (high s stays valid)", in, ASMCRYPTO_P256_OK);
    memcpy(in, good->in, 160);
    memset(in + 32, 0, 32);
    p256_expect("r = 0", in, ASMCRYPTO_P256_INVALID_R);
    memcpy(in + 32, P256_N, 32);
    p256_expect("r = n", in, ASMCRYPTO_P256_INVALID_R);
    memset(in + 64, 0, 32);
    p256_expect("r = n and s = 0: r first", in, ASMCRYPTO_P256_INVALID_R);
    memcpy(in, good->in, 160);
    memset(in + 64, 0, 32);
    p256_expect("s = 0", in, ASMCRYPTO_P256_INVALID_S);
    memcpy(in + 64, P256_N, 32);
    p256_expect("s = n", in, ASMCRYPTO_P256_INVALID_S);
    memset(in + 96, 0xff, 32);
    p256_expect("s = n and qx >= p: s first", in, ASMCRYPTO_P256_INVALID_S);
    memcpy(in, good->in, 160);
    memcpy(in + 96, P256_P, 32);
    p256_expect("qx = p", in, ASMCRYPTO_P256_KEY_COORDINATE_OUT_OF_RANGE);
    memcpy(in, good->in, 160);
    memset(in + 128, 0xff, 32);
    p256_expect("qy = 2^256 - 1", in, ASMCRYPTO_P256_KEY_COORDINATE_OUT_OF_RANGE);
    memcpy(in, good->in, 160);
    memset(in + 96, 0, 64);
    p256_expect("key (0, 0)", in, ASMCRYPTO_P256_KEY_NOT_ON_CURVE);
    memcpy(in, good->in, 160);
    in[159] ^= 1;
    p256_expect("qy changed: off the curve", in, ASMCRYPTO_P256_KEY_NOT_ON_CURVE);
    memcpy(in, good->in, 160);
    in[7] ^= 0x20;
    p256_expect("hash changed", in, ASMCRYPTO_P256_MISMATCH);
    memcpy(in, good->in, 160);
    in[40] ^= 0x01;
    p256_expect("r changed", in, ASMCRYPTO_P256_MISMATCH);

    /* The precompile at every length around 160: only 160 can succeed. */
    unsigned char longer[200];
    memset(longer, 0, sizeof longer);
    memcpy(longer, good->in, 160);
    for (size_t len = 0; len <= sizeof longer; len++) {
        memset(out, 0xAA, 32);
        size_t r = asmcrypto_p256verify_precompile(longer, len, out);
        if (len == 160)
            CHECK(r == 32 && out[31] == 1, "p256 precompile of 160 bytes");
        else
            CHECK(r == 0 && all_equal(out, 32, 0), "p256 precompile of %zu bytes", len);
    }
    /* out over the input. */
    memcpy(in, good->in, 160);
    CHECK(asmcrypto_p256verify_precompile(in, 160, in) == 32 && all_equal(in, 31, 0) &&
              in[31] == 1,
          "p256 precompile with out == input");
    memcpy(in, good->in, 160);
    CHECK(asmcrypto_p256verify_precompile(in, 160, in + 100) == 32 && in[131] == 1,
          "p256 precompile with out inside the input");

    /* NULL pointers and impossible lengths. */
    const unsigned char *h = good->in, *sg = good->in + 32, *k = good->in + 96;
    int reason = 99;
    CHECK(asmcrypto_p256_verify(NULL, sg, k, &reason) == 0 && reason == ASMCRYPTO_P256_FAILED,
          "p256 verify NULL hash");
    reason = 99;
    CHECK(asmcrypto_p256_verify(h, NULL, k, &reason) == 0 && reason == ASMCRYPTO_P256_FAILED,
          "p256 verify NULL sig");
    reason = 99;
    CHECK(asmcrypto_p256_verify(h, sg, NULL, &reason) == 0 && reason == ASMCRYPTO_P256_FAILED,
          "p256 verify NULL key");
    CHECK(asmcrypto_p256_verify(NULL, NULL, NULL, NULL) == 0, "p256 verify all NULL");
    CHECK(asmcrypto_p256_verify(h, sg, k, NULL) == 1, "p256 verify NULL reason_out");
    CHECK(asmcrypto_p256verify_precompile(good->in, 160, NULL) == 0, "p256 precompile NULL out");
    memset(out, 0xAA, 32);
    CHECK(asmcrypto_p256verify_precompile(NULL, 0, out) == 0 && all_equal(out, 32, 0),
          "p256 precompile of NULL, 0");
    memset(out, 0xAA, 32);
    CHECK(asmcrypto_p256verify_precompile(NULL, 160, out) == 0 && all_equal(out, 32, 0),
          "p256 precompile NULL input, len 160");
    memset(out, 0xAA, 32);
    CHECK(asmcrypto_p256verify_precompile(good->in, SIZE_MAX, out) == 0 &&
              all_equal(out, 32, 0),
          "p256 precompile len SIZE_MAX");
    unsigned char o2[2];
    memset(o2, 0xAA, 2);
    CHECK(asmcrypto_p256_verify_batch(0, NULL, NULL) == 0, "p256 batch n 0 NULL");
    CHECK(asmcrypto_p256_verify_batch(0, good->in, o2) == 0, "p256 batch n 0");
    CHECK(asmcrypto_p256_verify_batch(1, NULL, o2) == 0, "p256 batch NULL inputs");
    CHECK(asmcrypto_p256_verify_batch(1, good->in, NULL) == 0, "p256 batch NULL ok_out");
    size_t huge[] = {SIZE_MAX, SIZE_MAX / 160 + 1, (size_t)PTRDIFF_MAX / 160 + 1};
    for (size_t j = 0; j < sizeof huge / sizeof huge[0]; j++)
        CHECK(asmcrypto_p256_verify_batch(huge[j], good->in, o2) == 0, "p256 batch n %zu",
              huge[j]);
    CHECK(all_equal(o2, 2, 0xAA), "a refused p256 batch wrote");
    printf("p256 hostile: %d checks\n", (int)atomic_load(&checks) - checks_before);
}

/* The P-256 batch against the single call, from several threads at once, on the vectors
   and spoiled copies of them. */
#define P256_POOL 1200
#define P256_BIG 1000

static unsigned char p256_pool[P256_POOL][160];
static int p256_pool_ok[P256_POOL];

static void p256_batch_against_single(size_t off, size_t n) {
    unsigned char *in = calloc(160 * n + 1, 1), *oks = malloc(n + 1);
    for (size_t i = 0; i < n; i++) memcpy(in + 160 * i, p256_pool[off + i], 160);
    memset(oks, 0xAA, n + 1);
    size_t got = asmcrypto_p256_verify_batch(n, in, oks), want = 0;
    for (size_t i = 0; i < n; i++) {
        want += (size_t)p256_pool_ok[off + i];
        CHECK(oks[i] == p256_pool_ok[off + i],
              "p256 batch n %zu offset %zu entry %zu differs from the single call", n, off, i);
    }
    CHECK(got == want, "p256 batch n %zu returned %zu, want %zu", n, got, want);
    CHECK(oks[n] == 0xAA, "p256 batch n %zu wrote past n", n);
    free(in);
    free(oks);
}

static void *p256_batch_thread(void *arg) {
    size_t id = (size_t)(uintptr_t)arg;
    for (size_t n = 0; n <= 40; n++)
        p256_batch_against_single((id * 37 + n * 13) % (P256_POOL - n), n);
    p256_batch_against_single(id * 29, P256_BIG);
    return NULL;
}

static void test_p256_batch_threads(void) {
    int valid = 0;
    for (size_t k = 0; k < P256_POOL; k++) {
        const p256_vec_t *v = &p256v[(k * 7) % np256];
        memcpy(p256_pool[k], v->in, 160);
        switch (k % 9) {
        case 1: p256_pool[k][k % 32] ^= 1; break;                 /* hash changed */
        case 2: p256_negate_mod_n(p256_pool[k] + 64, v->in + 64); break; /* high s */
        case 3: memset(p256_pool[k] + 32, 0, 32); break;          /* r = 0 */
        case 4: memset(p256_pool[k] + 96, 0, 64); break;          /* key (0, 0) */
        case 5: p256_pool[k][159] ^= 1; break;                    /* key off the curve */
        default: break;                                           /* unchanged */
        }
        int reason = 99;
        p256_pool_ok[k] =
            asmcrypto_p256_verify(p256_pool[k], p256_pool[k] + 32, p256_pool[k] + 96, &reason);
        CHECK(reason != ASMCRYPTO_P256_FAILED && (reason == ASMCRYPTO_P256_OK) == p256_pool_ok[k],
              "p256 pool %zu: reason %d", k, reason);
        valid += p256_pool_ok[k];
    }
    CHECK(valid > P256_POOL / 4 && valid < P256_POOL, "p256 pool: %d of %d valid", valid,
          P256_POOL);
    pthread_t th[THREADS];
    for (size_t i = 0; i < THREADS; i++)
        CHECK(pthread_create(&th[i], NULL, p256_batch_thread, (void *)(uintptr_t)i) == 0,
              "thread");
    for (size_t i = 0; i < THREADS; i++) pthread_join(th[i], NULL);
    printf("p256 batch vs single: n = 0..40 and %d, %d threads at once, pool %d (%d valid)\n",
           P256_BIG, THREADS, P256_POOL, valid);
}

/* ------------------------------------------------------------------------------------ */
/* Random signatures, signed and recovered by libsecp256k1                                */

#ifdef HAVE_LIBSECP256K1
static const unsigned char N_ORDER[32] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
    0xba, 0xae, 0xdc, 0xe6, 0xaf, 0x48, 0xa0, 0x3b, 0xbf, 0xd2, 0x5e, 0x8c, 0xd0, 0x36, 0x41, 0x41};
static const unsigned char P_FIELD[32] = {
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe, 0xff, 0xff, 0xfc, 0x2f};

/* out = a + b (32-byte big-endian), returns the carry. */
static int add256(unsigned char out[32], const unsigned char a[32], const unsigned char b[32]) {
    unsigned c = 0;
    for (int i = 31; i >= 0; i--) {
        unsigned t = (unsigned)a[i] + b[i] + c;
        out[i] = (unsigned char)t;
        c = t >> 8;
    }
    return (int)c;
}

/* out = a - b (32-byte big-endian), returns the borrow. */
static int sub256(unsigned char out[32], const unsigned char a[32], const unsigned char b[32]) {
    int borrow = 0;
    for (int i = 31; i >= 0; i--) {
        int t = (int)a[i] - b[i] - borrow;
        borrow = t < 0;
        out[i] = (unsigned char)(t + (borrow ? 256 : 0));
    }
    return borrow;
}

static secp256k1_context *ctx;
static long illegal_calls;

static void on_illegal(const char *msg, void *data) {
    (void)msg;
    (*(long *)data)++;
}

/* geth's secp256k1_ext_ecdsa_recover, on the system libsecp256k1. */
static int ref_recover(unsigned char out[65], const unsigned char sig[65],
                       const unsigned char msg[32]) {
    secp256k1_ecdsa_recoverable_signature rs;
    secp256k1_pubkey pk;
    if (!secp256k1_ecdsa_recoverable_signature_parse_compact(ctx, &rs, sig, (int)sig[64]))
        return 0;
    if (!secp256k1_ecdsa_recover(ctx, &pk, &rs, msg)) return 0;
    size_t len = 65;
    return secp256k1_ec_pubkey_serialize(ctx, out, &len, &pk, SECP256K1_EC_UNCOMPRESSED);
}

static void random_seckey(unsigned char key[32]) {
    do rng_bytes(key, 32);
    while (!secp256k1_ec_seckey_verify(ctx, key));
}

/* Rewrites sig = r || s || recid and msg into spoiled or special forms, by variant. */
static void spoil(int variant, unsigned char msg[32], unsigned char sig[65]) {
    unsigned char t[32], one[32] = {0};
    one[31] = 1;
    switch (variant) {
    case 0: case 1: case 2: break; /* as signed */
    case 3: sub256(sig + 32, N_ORDER, sig + 32); break; /* s -> n - s (high s) */
    case 4: msg[rng_next() % 32] ^= (unsigned char)(1u << (rng_next() % 8)); break;
    case 5: memset(sig, 0, 32); break;                       /* r = 0 */
    case 6: memset(sig + 32, 0, 32); break;                  /* s = 0 */
    case 7: memcpy(sig, N_ORDER, 32); sig[31] += (unsigned char)(rng_next() % 3); break;
    case 8: memcpy(sig + 32, N_ORDER, 32); if (rng_next() & 1) memset(sig + 32, 0xff, 32); break;
    case 9: rng_bytes(sig, 32); break;                       /* r random: off the curve half
                                                                the time, >= n sometimes */
    case 10: sig[64] |= 2; break;                            /* x = r + n >= p */
    case 11: sig[64] = (unsigned char)(4 + rng_next() % 252); break;
    case 12: memset(sig, 0xff, 64); break;
    case 13: memset(msg, 0, 32); break;                      /* m = 0 */
    case 14: /* m >= n: reduced mod n */
        if (rng_next() & 1) memcpy(msg, N_ORDER, 32);
        else memset(msg, 0xff, 32);
        break;
    case 15: { /* recid 2 or 3 that succeeds: x = r + n on the curve, x < p */
        unsigned char pk33[33];
        secp256k1_pubkey pk;
        do {
            memset(sig, 0, 16);
            rng_bytes(sig + 16, 16);
            sig[16] &= 0x0f; /* r < 2^124 < p - n */
            add256(t, sig, N_ORDER);
            pk33[0] = 0x02;
            memcpy(pk33 + 1, t, 32);
        } while (!secp256k1_ec_pubkey_parse(ctx, &pk, pk33, 33));
        rng_bytes(sig + 32, 32);
        sig[32] &= 0x7f;
        sig[64] = (unsigned char)(2 | (rng_next() & 1));
        break;
    }
    case 16: { /* r = p - n - {0, 1}, recid 2/3: x = p (fails) or p - 1 */
        unsigned char pn[32];
        sub256(pn, P_FIELD, N_ORDER);
        if (rng_next() & 1) sub256(pn, pn, one);
        memcpy(sig, pn, 32);
        sig[64] = (unsigned char)(2 | (rng_next() & 1));
        break;
    }
    case 17: { /* the key at infinity: R = kG and m = s·k, so s·R − m·G = 0 */
        unsigned char k[32], pk33[33];
        secp256k1_pubkey R;
        size_t len = 33;
        do {
            random_seckey(k);
            CHECK(secp256k1_ec_pubkey_create(ctx, &R, k), "pubkey_create");
            secp256k1_ec_pubkey_serialize(ctx, pk33, &len, &R, SECP256K1_EC_COMPRESSED);
            len = 33;
        } while (!sub256(t, pk33 + 1, N_ORDER)); /* want x < n, so that r = x */
        memcpy(sig, pk33 + 1, 32);
        sig[64] = (unsigned char)(pk33[0] & 1);
        memcpy(msg, k, 32);
        if (!secp256k1_ec_seckey_tweak_mul(ctx, msg, sig + 32)) memset(msg, 0, 32);
        break;
    }
    default: /* r, s, recid all random */
        rng_bytes(sig, 64);
        sig[64] = (unsigned char)(rng_next() % 4);
        break;
    }
}

#define VARIANTS 19

static void test_random(long count) {
    ctx = secp256k1_context_create(SECP256K1_CONTEXT_SIGN | SECP256K1_CONTEXT_VERIFY);
    secp256k1_context_set_illegal_callback(ctx, on_illegal, &illegal_calls);
    unsigned char *msgs = malloc((size_t)count * 32), *sigs = malloc((size_t)count * 65);
    unsigned char *ref_addrs = malloc((size_t)count * 20), *ref_oks = malloc((size_t)count);
    long succeeded = 0, by_variant_ok[VARIANTS] = {0}, recid_high = 0, infinity = 0;

    for (long i = 0; i < count; i++) {
        unsigned char key[32], msg[32], sig[65], want_pub[65];
        secp256k1_ecdsa_recoverable_signature rs;
        secp256k1_pubkey pk;
        int recid;
        size_t len = 65;
        random_seckey(key);
        rng_bytes(msg, 32);
        CHECK(secp256k1_ecdsa_sign_recoverable(ctx, &rs, msg, key, NULL, NULL), "sign");
        secp256k1_ecdsa_recoverable_signature_serialize_compact(ctx, sig, &recid, &rs);
        sig[64] = (unsigned char)recid;
        CHECK(secp256k1_ec_pubkey_create(ctx, &pk, key), "pubkey_create");
        secp256k1_ec_pubkey_serialize(ctx, want_pub, &len, &pk, SECP256K1_EC_UNCOMPRESSED);

        int variant = (int)(i % VARIANTS);
        spoil(variant, msg, sig);

        /* asmcrypto_ecdsa_recover against geth's contract on libsecp256k1 */
        unsigned char ref_pub[65], pub[65];
        long illegal_before = illegal_calls;
        int rr = ref_recover(ref_pub, sig, msg);
        CHECK((illegal_calls != illegal_before) == (sig[64] > 3), "illegal callback");
        recid_high += sig[64] > 3;
        if (variant < 3)
            CHECK(rr && memcmp(ref_pub, want_pub, 65) == 0, "libsecp256k1 recovers its key");
        if (variant == 15) CHECK(rr, "recid 2/3 with x = r + n on the curve must recover");
        if (variant == 17) {
            CHECK(!rr, "the key at infinity must fail");
            infinity++;
        }
        memset(pub, 0xAA, 65);
        int ra = asmcrypto_ecdsa_recover(pub, sig, msg);
        CHECK(ra == rr, "random %ld (variant %d): ecdsa_recover %d, libsecp256k1 %d", i,
              variant, ra, rr);
        if (ra && rr)
            CHECK(memcmp(pub, ref_pub, 65) == 0, "random %ld (variant %d): keys differ", i,
                  variant);
        if (!ra) CHECK(all_equal(pub, 65, 0), "failed ecdsa_recover must zero-fill");
        succeeded += rr;
        by_variant_ok[variant] += rr;

        /* asmcrypto_recover_address: v = recid or recid + 27 for 0/1; anything else fails */
        unsigned char vsig[65], ref_addr[20], addr[20];
        memcpy(vsig, sig, 65);
        if (sig[64] <= 1 && (i & 1)) vsig[64] = (unsigned char)(sig[64] + 27);
        int ref_ok = 0;
        int v = vsig[64], parity = v <= 1 ? v : (v == 27 || v == 28) ? v - 27 : -1;
        if (parity == sig[64]) {
            ref_ok = rr;
            if (rr) address_of_pubkey65(ref_addr, ref_pub);
        } else if (parity >= 0) { /* sig[64] was 27 or 28 by variant 11 */
            unsigned char psig[65], ppub[65];
            memcpy(psig, sig, 64);
            psig[64] = (unsigned char)parity;
            ref_ok = ref_recover(ppub, psig, msg);
            if (ref_ok) address_of_pubkey65(ref_addr, ppub);
        }
        if (!ref_ok) memset(ref_addr, 0, 20);
        memset(addr, 0xAA, 20);
        int rad = asmcrypto_recover_address(addr, msg, vsig);
        CHECK(rad == ref_ok && memcmp(addr, ref_addr, 20) == 0,
              "random %ld (variant %d, v %d): recover_address", i, variant, vsig[64]);
        memcpy(msgs + 32 * i, msg, 32);
        memcpy(sigs + 65 * i, vsig, 65);
        memcpy(ref_addrs + 20 * i, ref_addr, 20);
        ref_oks[i] = (unsigned char)ref_ok;

        /* the precompile: v word 27/28 (sometimes spoiled), input cut short or extended */
        unsigned char in[200], padded[128] = {0}, out[32];
        rng_bytes(in, sizeof in);
        memcpy(in, msg, 32);
        memset(in + 32, 0, 32);
        in[63] = (unsigned char)(27 + (sig[64] & 1));
        if (sig[64] > 1 && (i & 2)) in[63] = sig[64]; /* 2, 3, 4..255: not 27/28 unless so */
        if (i % 13 == 5) in[32 + rng_next() % 31] = 1;
        memcpy(in + 64, sig, 64);
        size_t plen = (i % 7 == 3) ? (size_t)(rng_next() % 128) : 128 + rng_next() % 73;
        memcpy(padded, in, plen < 128 ? plen : 128);
        unsigned char want_out[32] = {0};
        size_t want_r = 0;
        if (v_word_ok(padded)) {
            unsigned char psig[65], ppub[65];
            memcpy(psig, padded + 64, 64);
            psig[64] = (unsigned char)(padded[63] - 27);
            if (ref_recover(ppub, psig, padded)) {
                address_of_pubkey65(want_out + 12, ppub);
                want_r = 32;
            }
        }
        memset(out, 0xAA, 32);
        size_t pr = asmcrypto_ecrecover_precompile(in, plen, out);
        CHECK(pr == want_r && memcmp(out, want_out, 32) == 0,
              "random %ld (variant %d): precompile of %zu bytes", i, variant, plen);
    }

    /* The whole set through the batch call at once (the parallel path), against
       libsecp256k1 directly. */
    unsigned char *addrs = malloc((size_t)count * 20), *oks = malloc((size_t)count);
    size_t got = asmcrypto_recover_addresses((size_t)count, msgs, sigs, addrs, oks);
    size_t want = 0;
    for (long i = 0; i < count; i++) {
        want += ref_oks[i];
        CHECK(oks[i] == ref_oks[i] && memcmp(addrs + 20 * i, ref_addrs + 20 * i, 20) == 0,
              "batch of %ld random: entry %ld", count, i);
    }
    CHECK(got == want, "batch of %ld random: %zu recovered, want %zu", count, got, want);
    for (int v = 0; v < VARIANTS; v++)
        if (v < 4 || v == 13 || v == 14 || v == 15)
            CHECK(count < VARIANTS * 4 || by_variant_ok[v] > 0, "variant %d never recovered", v);
    printf("random (libsecp256k1 %s): %ld signatures, %d variants, %ld recovered by both, "
           "%ld with recid > 3, %ld at infinity; batch of %ld: %zu recovered\n",
           "system", count, VARIANTS, succeeded, recid_high, infinity, count, got);
    free(msgs);
    free(sigs);
    free(ref_addrs);
    free(ref_oks);
    free(addrs);
    free(oks);
    secp256k1_context_destroy(ctx);
}
#endif

/* ------------------------------------------------------------------------------------ */

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s DATA_DIR [RANDOM_COUNT [SEED]]\n", argv[0]);
        return 2;
    }
    long random_count = argc > 2 ? strtol(argv[2], NULL, 10) : 10000;
    rng_state = argc > 3 ? strtoull(argv[3], NULL, 0) : 0x5eed14ull;
    printf("backend: %s\n", asmcrypto_backend());

    test_keccak();
    test_precompile_vectors(argv[1]);
    load_txs(argv[1]);
    test_txs();
    test_hostile();
    test_batch_threads();
    test_p256_vectors(argv[1]);
    test_p256_hostile();
    test_p256_batch_threads();
#ifdef HAVE_LIBSECP256K1
    test_random(random_count);
#else
    (void)random_count;
    printf("random: SKIPPED, built without libsecp256k1 (no -DHAVE_LIBSECP256K1)\n");
#endif

    long f = atomic_load(&failures), c = atomic_load(&checks);
    printf("%ld checks, %ld failures\n", c, f);
    return f ? 1 : 0;
}
