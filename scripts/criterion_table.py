#!/usr/bin/env python3
"""Prints a markdown table of criterion results (mean and its 95% interval) for the
benchmark groups named on the command line, with each function's ratio to a reference
function of the same group (default: libsecp256k1, else tiny-keccak).

Usage: scripts/criterion_table.py recover_address [keccak256 ...]
Reads target/criterion/<group>/<...>/new/estimates.json as left by `cargo bench`.
"""
import json, os, sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "criterion")
REFS = ("libsecp256k1", "8x libsecp256k1", "tiny-keccak", "single-chain")


def fmt(ns):
    for unit, div in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if ns >= div:
            return f"{ns / div:.3g} {unit}"
    return f"{ns:.3g} ns"


def rows(group):
    # criterion stores "a/b" group names as "a_b" directories.
    base = os.path.join(ROOT, group.replace("/", "_"))
    out = []
    for dirpath, _dirs, files in os.walk(base):
        if "estimates.json" in files and os.path.basename(dirpath) == "new":
            bench_id = os.path.relpath(os.path.dirname(dirpath), base)
            with open(os.path.join(dirpath, "estimates.json")) as f:
                est = json.load(f)["mean"]
            out.append((bench_id, est["point_estimate"], est["confidence_interval"]))
    return sorted(out)


def main():
    for group in sys.argv[1:]:
        data = rows(group)
        if not data:
            print(f"no results for {group}", file=sys.stderr)
            continue
        # Sub-groups: everything before the last path component (e.g. "64B").
        subs = {}
        for bench_id, mean, ci in data:
            parent, _, name = bench_id.rpartition("/")
            subs.setdefault(parent, []).append((name, mean, ci))
        print(f"### {group}\n")
        print("| case | function | mean | 95% CI | ratio |")
        print("|---|---|---|---|---|")
        for parent, items in sorted(subs.items()):
            ref = next((m for n, m, _ in items if n in REFS), None)
            for name, mean, ci in items:
                ratio = f"{mean / ref:.2f}" if ref else ""
                lo, hi = ci["lower_bound"], ci["upper_bound"]
                print(f"| {parent or group} | {name} | {fmt(mean)} | {fmt(lo)} – {fmt(hi)} | {ratio} |")
        print()


if __name__ == "__main__":
    main()
