#!/usr/bin/env python3
"""The 8-lane engine's emulated instructions by phase (scripts/engine_profile.sh).

Two roles:
- `engine_profile.py run ELF SYMBOL < spec > result`: a drop-in for the emulator runner
  (`$BXRUN`, protocol in ../shared/emu/README.md) that also counts how many times each
  instruction address executed and writes the histogram to $BX_PROFILE_OUT (JSON).
- `engine_profile.py report ELF HISTOGRAM SOURCE_ROOT`: maps every address to its chain
  of inlined source frames (addr2line -i) and sums the counts by phase of the engine
  (src/lanes/recover.rs: its numbered steps, the lift, the Strauss loop's kinds of step).
"""
import json, os, re, struct, subprocess, sys
from collections import Counter, defaultdict

def run(elf, sym):
    sys.path.insert(0, os.environ["BX_EMU_DIR"])
    from bxcall import Machine, DATA, PAGE
    raw = sys.stdin.buffer.read()
    (nargs,) = struct.unpack_from("<I", raw, 0); off = 4
    args = []
    for _ in range(nargs):
        kind, v = struct.unpack_from("<BQ", raw, off); off += 9
        if kind == 0:
            args.append(("int", v))
        else:
            args.append(("buf", raw[off:off + v])); off += v
    total = sum((len(a[1]) + 63) // 64 * 64 for a in args if a[0] == "buf")
    m = Machine(elf, data_pages=max(1, (total + PAGE - 1) // PAGE))
    regs, bufs, addr = [], [], DATA
    for kind, v in args:
        if kind == "int":
            regs.append(v)
        else:
            m.write(addr, v); regs.append(addr); bufs.append((addr, len(v)))
            addr += (len(v) + 63) // 64 * 64
    # Counted as the emulator's own count (BX_COUNT=1) counts: once per instruction after
    # it executed (a `rep movsb` once, not once per byte), at the address it started at.
    hist = Counter()
    cpu = m.sess.cpu
    at = [0]
    def before(sess, cpu_id, _insn):
        at[0] = cpu.rip
    def after(sess, cpu_id, _insn):
        hist[at[0]] += 1
    m.hook.before_execution = before
    m.hook.after_execution = after
    rax = m.call(sym, *regs)
    n = sum(hist.values())
    print(f"instructions: {n}", file=sys.stderr)
    with open(os.environ["BX_PROFILE_OUT"], "a") as f:
        # The entry's last integer argument: how many groups of eight it recovered.
        groups = [v for kind, v in args if kind == "int"][-1:] or [1]
        f.write(json.dumps({"sym": sym, "groups": groups[0],
                            "hist": {hex(k): v for k, v in hist.items()}}) + "\n")
    out = struct.pack("<Q", rax) + b"".join(m.read(a, n) for a, n in bufs)
    sys.stdout.buffer.write(out); sys.stdout.buffer.flush()

# The phases of the recovery core, from its numbered comments ("// 1." …) in src/lanes/recover.rs.
def phases_of(source):
    marks = []
    for i, line in enumerate(open(source), 1):
        mm = re.match(r"\s*// (\d)\. (.*)", line)
        if mm:
            marks.append((i, int(mm.group(1)), mm.group(2).rstrip(".")))
    return marks

NAMES = {
    1: "dummy inputs for idle lanes",
    2: "r⁻¹ (product tree), u₁, u₂",
    3: "schedule: GLV split, joint recoding, G windows",
    4: "R's table: a chain of 2 doublings and 8 additions, one frame",
    5: "Strauss loop",
    6: "to affine (product tree), bytes",
}

def classify(frames, marks):
    """frames: [(function, file, line)] innermost first; inlined frames carry short names
    (`recover_groups<…>`), the outermost its full path."""
    def has(name, file=None):
        for f, fl, _ in frames:
            short = re.sub(r"<.*", "", f).split("::")[-1]
            if short == name and (file is None or fl.endswith(file)):
                return True
        return False
    files = [fl for _, fl, _ in frames]
    if any(fl.endswith("modinv.rs") for fl in files):
        return "safegcd: the two scalar inversions per group (r⁻¹, 1/Z)"
    if any("keccak" in fl for _, fl, _ in frames):
        return "Keccak ×8"
    if has("lift", "lanes/recover.rs"):
        return "lift: x³ + 7, square roots (two chains)"
    if has("run", "lanes/recover.rs"):
        if has("add_complete", "lanes/recover.rs"):
            return "loop: complete additions (fix-up loop)"
        if has("double", "lanes/point.rs"):
            return "loop: doublings (126)"
        if has("digit"):
            return "loop: joint digit lookup (units, gathers)"
        if has("g_entry", "lanes/recover.rs"):
            return "loop: G entry gathers"
        # The rest of the loop is the additions (their formulas in point.rs, most of whose
        # code the compiler leaves without a line of its own) and the loop's control.
        return "loop: additions (43 joint, 20 G), control"
    if any(fl.endswith(("glv.rs", "eisenstein.rs", "recode.rs", "schedule.rs")) for fl in files):
        return "3. schedule: GLV split, joint recoding, G windows"
    # The frames of the core's own functions give the line of their statement.
    for f, file, line in frames:
        short = re.sub(r"<.*", "", f).split("::")[-1]
        if short in ("recover_groups", "strauss_group", "finish_group") and file.endswith(
            "lanes/recover.rs"
        ):
            phase = 0
            for (ln, num, _) in marks:
                if line >= ln:
                    phase = num
            if phase:
                return f"{phase}. {NAMES.get(phase, '')}"
        if short == "lift_recover" and file.endswith("lanes/recover.rs"):
            return "lift: lanes kept, y's parity"
    return "entry, parse glue, other"

def report(elf, hist_path, root):
    # One table per engine entry (the C-ABI symbol each emulated call ran) and number of
    # groups per call (one group alone, or several sharing their inversions).
    hists, groups = defaultdict(Counter), Counter()
    for line in open(hist_path):
        rec = json.loads(line)
        key = (rec["sym"], rec.get("groups", 1))
        groups[key] += key[1]
        for k, v in rec["hist"].items():
            hists[key][int(k, 16)] += v
    for key in hists:
        print(f"== {key[0]}, {key[1]} group(s) of 8 a call")
        report_one(elf, hists[key], groups[key], root)
        print()

def report_one(elf, hist, groups, root):
    addrs = sorted(hist)
    p = subprocess.run(["addr2line", "-e", elf, "-a", "-f", "-i", "-C"],
                       input="\n".join(hex(a) for a in addrs), capture_output=True, text=True, check=True)
    chains = {}
    cur = None
    lines = p.stdout.splitlines()
    i = 0
    while i < len(lines):
        l = lines[i]
        if l.startswith("0x") and re.fullmatch(r"0x[0-9a-f]+", l):
            cur = int(l, 16); chains[cur] = []; i += 1; continue
        func = l; loc = lines[i + 1] if i + 1 < len(lines) else "??:0"
        file, _, ln = loc.rpartition(":")
        ln = re.match(r"\d+", ln)
        chains[cur].append((func, file, int(ln.group()) if ln else 0))
        i += 2
    # Code the compiler left without a line (line 0: mostly products it scheduled across
    # inlined functions) takes the frames of the nearest executed address before it.
    last = []
    for a in addrs:
        ch = chains.get(a, [])
        if ch and ch[0][2] != 0:
            last = ch
        elif last:
            chains[a] = last
    marks = phases_of(os.path.join(root, "src/lanes/recover.rs"))
    by = defaultdict(int)
    for a, n in hist.items():
        by[classify(chains.get(a, []), marks)] += n
    total = sum(by.values())
    sigs = 8 * groups
    print(f"{'phase':<52} {'instructions per signature':>28} {'share':>7}")
    for k in sorted(by, key=lambda k: -by[k]):
        print(f"{k:<52} {by[k] / sigs:>28,.0f} {by[k] / total:>7.1%}")
    print(f"{'total':<52} {total / sigs:>28,.0f}")

if __name__ == "__main__":
    try:
        if sys.argv[1] == "run":
            run(sys.argv[2], sys.argv[3]); code = 0
        else:
            report(sys.argv[2], sys.argv[3], sys.argv[4]); code = 0
    except Exception as e:
        print(f"engine_profile: {e!r}", file=sys.stderr); code = 2
    sys.stdout.flush()
    os._exit(code)
