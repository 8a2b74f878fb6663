/*
 * A QEMU TCG plugin that counts the guest instructions a user-mode program executes, and
 * among them the aarch64 64-bit multiplies, and prints both at exit on QEMU's log (stderr
 * unless -D names a file):
 *
 *     insns: N
 *     mul64: M    (the multiplies with a 64-bit result: MADD/MSUB and their alias MUL,
 *                  SMULH, UMULH, [SU]MADDL, [SU]MSUBL)
 *
 * Used by scripts/arm_instructions.sh to count one recovery on aarch64 under
 * qemu-aarch64. Each translated block adds its length to one counter each time it runs,
 * and each multiply adds one to the other (inline adds, no callbacks), so the counts are
 * those of the executed blocks: exact for a single-threaded guest, which is what the
 * script runs. The multiply count is meaningful only for aarch64 guests.
 *
 * QEMU distributions that build plugin support do not always ship the plugin-API header,
 * so the few declarations used are written out here: those of plugin API version 1
 * (QEMU 4.2 to 7.2, Debian 12's qemu-user). QEMU refuses a plugin of a version it does
 * not support, with a message that names the versions.
 *
 * Build: cc -shared -fPIC -O2 -o insn_count.so qemu_insn_count.c
 * Run:   qemu-aarch64 -plugin ./insn_count.so -d plugin PROGRAM ARGS...
 */

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;
struct qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;

/* The plugin API's calls this plugin makes, resolved in the QEMU binary at load time. */
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*tb_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*udata_cb)(qemu_plugin_id_t id, void *userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, tb_trans_cb cb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
                                              void *ptr, uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
                                                enum qemu_plugin_op op, void *ptr, uint64_t imm);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, udata_cb cb, void *userdata);
void qemu_plugin_outs(const char *string);

EXPORT int qemu_plugin_version = 1;

static uint64_t executed;
static uint64_t multiplies;

/* An A64 data-processing (3 source) instruction with sf = 1 (64-bit): bits 31..24 are
 * 1001 1011; bits 23..21 (op31) and 15 (o0) pick MADD/MSUB, SMADDL/SMSUBL, SMULH,
 * UMADDL/UMSUBL and UMULH, all of them multiplies. */
static int is_mul64(uint32_t word) { return (word & 0xff000000u) == 0x9b000000u; }

/* At translation: make every later execution of this block add its length to the
 * instruction counter, and each multiply in it one to the multiply counter. */
static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &executed, n);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        if (qemu_plugin_insn_size(insn) != 4) {
            continue;
        }
        const uint8_t *b = qemu_plugin_insn_data(insn);
        uint32_t word = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 |
                        (uint32_t)b[3] << 24;
        if (is_mul64(word)) {
            qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64,
                                                       &multiplies, 1);
        }
    }
}

static void on_exit(qemu_plugin_id_t id, void *userdata) {
    (void)id;
    (void)userdata;
    char line[96];
    snprintf(line, sizeof line, "insns: %" PRIu64 "\nmul64: %" PRIu64 "\n", executed, multiplies);
    qemu_plugin_outs(line);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *info, int argc,
                               char **argv) {
    (void)info;
    (void)argc;
    (void)argv;
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_exit, NULL);
    return 0;
}
