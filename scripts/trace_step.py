# gdb extension for scripts/trace_mca.sh: stops at the TRACE_SKIP+1-th call of the function
# TRACE_FUNC (a symbol), steps it instruction by instruction (into its callees) until it
# returns, and writes the executed instructions, one per line in Intel syntax, to TRACE_OUT.
# Run as: gdb -q -batch -x scripts/trace_step.py --args PROGRAM ARGS
import os

import gdb

func = os.environ["TRACE_FUNC"]
out_path = os.environ["TRACE_OUT"]
skip = int(os.environ.get("TRACE_SKIP", "3"))
for setting in ("pagination off", "confirm off", "disassembly-flavor intel",
                "startup-with-shell off"):
    gdb.execute("set " + setting)
bp = gdb.Breakpoint(func)
gdb.execute("run", to_string=True)
for _ in range(skip):
    gdb.execute("continue", to_string=True)
bp.enabled = False
arch = gdb.selected_frame().architecture()
depth = 0
count = 0
with open(out_path, "w") as out:
    while True:
        pc = int(gdb.parse_and_eval("$pc"))
        insn = arch.disassemble(pc)[0]["asm"].split("#")[0].strip()
        out.write(insn + "\n")
        count += 1
        op = insn.split()[0] if insn else ""
        if op.startswith("call"):
            depth += 1
        elif op.startswith("ret"):
            if depth == 0:
                break
            depth -= 1
        gdb.execute("stepi", to_string=True)
print(f"traced {count} instructions of {func}")
gdb.execute("kill")
