#!/usr/bin/env bash
# Line and region coverage of src/ from the profiles of the instrumented test runs that
# .ci/run makes (`cargo llvm-cov --no-report ...`; the same commands run by hand, see
# doc/reliability.md): the per-file table, the uncovered lines, the totals, and the same
# for the library code alone (the unit-test modules at the ends of src/ files left out);
# exits 1 below the floors.
#
# Never counted: src/test_support/ (test support), src/boundary_tests.rs and
# src/lane_bounds_tests.rs (unit tests), and src/lanes/abi.rs, the AVX-512 engine's C-ABI
# entries for the emulator: their code runs inside the emulator, whose memory (coverage
# counters included) does not come back.
#
# Counted only on a CPU that has what they need (printed when left out): the files of
# NEEDS below. The AVX-512 code in other files (both engines' target-feature entries in
# lanes/recover.rs, their `Engine` impls in batch/lanes8.rs and the native tests there,
# the 8-way Keccak in keccak/batch.rs, dispatch branches) stays counted everywhere: a
# machine without AVX-512 IFMA misses some of it, one without AVX-512 F all of it, so its
# floors are lower (the difference measured, doc/reliability.md). src/lanes/avx512.rs
# holds both engines' intrinsics (IFMA and `vpmuludq`) and needs IFMA to be run whole.
set -euo pipefail
cd "$(dirname "$0")/.."

# Floors, percent: measured with AVX-512 IFMA (AMD Zen 5: lines 96.00, regions 97.41,
# library lines 96.08 over the two main runs; Intel Xeon, the runs of .ci/run as they are
# now: lines 96.24, regions 97.58, library lines 96.38), and estimated for a CPU without
# AVX-512 by counting every line only native AVX-512 reaches as missed (lines 94.92,
# regions 96.55; doc/reliability.md), each less a margin.
FLOORS_WITH_IFMA=(95.5 96.5 93.5)    # lines, regions, library lines
FLOORS_WITHOUT_IFMA=(94.0 95.5 92.0)

# The other workspace members' sources (the test support crate's tests run instrumented
# too) are not src/.
root=$(pwd | sed 's/[][\\.^$*+?(){}|]/\\&/g')
ignore="^$root/(testkit|tools|ffi|fuzz|tests|benches|examples)/"
ignore+='|src/test_support/|src/(boundary|lane_bounds)_tests\.rs$|src/lanes/abi\.rs$'
# CPU flags (as /proc/cpuinfo names them) and the files that need them.
NEEDS=(
    "avx512f avx512bw avx512ifma:src/lanes/avx512.rs"
)
floors=("${FLOORS_WITH_IFMA[@]}")
for need in "${NEEDS[@]}"; do
    flags=${need%%:*}
    file=${need#*:}
    for flag in $flags; do
        if ! grep -qw "$flag" /proc/cpuinfo; then
            echo "coverage: $file not counted (this CPU lacks $flag)"
            ignore+="|${file//./\\.}\$"
            floors=("${FLOORS_WITHOUT_IFMA[@]}")
            break
        fi
    done
done

report=$(cargo llvm-cov report --show-missing-lines --ignore-filename-regex "$ignore")
printf '%s\n' "$report"
# TOTAL  regions missed percent  functions missed percent  lines missed percent ...
read -r regions lines < <(awk '$1 == "TOTAL" { sub("%", "", $4); sub("%", "", $10); print $4, $10 }' <<<"$report")

# The library code alone: lcov's line records up to the `#[cfg(test)] mod tests` that
# ends a file (where there is one).
lcov=target/llvm-cov/src.lcov
mkdir -p target/llvm-cov
cargo llvm-cov report --lcov --output-path "$lcov" --ignore-filename-regex "$ignore"
read -r lib_found lib_hit < <(awk -F'[:,]' '
    /^SF:/ {
        file = substr($0, 4); cut = 1e9; prev = ""
        while ((getline line < file) > 0) {
            n++
            if (prev == "#[cfg(test)]" && line ~ /^(pub\(crate\) )?mod tests/) { cut = n - 1 }
            prev = line
        }
        close(file); n = 0
    }
    /^DA:/ { if ($2 < cut) { found++; if ($3 > 0) hit++ } }
    END { print found + 0, hit + 0 }
' "$lcov")
lib=$(awk -v f="$lib_found" -v h="$lib_hit" 'BEGIN { printf "%.2f", 100 * h / f }')
printf 'coverage of src/: lines %.2f%%, regions %.2f%%; library code alone (unit-test modules left out): lines %s%% (%d of %d)\n' \
    "$lines" "$regions" "$lib" "$lib_hit" "$lib_found"
printf 'floors: lines %s%%, regions %s%%, library lines %s%%\n' "${floors[0]}" "${floors[1]}" "${floors[2]}"
awk -v l="$lines" -v r="$regions" -v b="$lib" -v fl="${floors[0]}" -v fr="${floors[1]}" -v fb="${floors[2]}" \
    'BEGIN { if (l < fl || r < fr || b < fb) { print "coverage below the floor"; exit 1 } }'
