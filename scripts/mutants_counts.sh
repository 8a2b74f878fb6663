# Sourced by scripts/mutants.sh and scripts/mutants_harness.sh.
# mutant_counts DIR FILE...: each file's caught, missed, unviable and timed-out mutants
# from a cargo-mutants output directory DIR (its caught.txt, missed.txt, ...).
mutant_counts() {
    local d=$1 f
    shift
    count() { grep -c "^$f:" "$d/$1.txt" || true; }
    for f in "$@"; do
        printf '%-30s caught %4s  missed %4s  unviable %4s  timeout %4s\n' "$f" \
            "$(count caught)" "$(count missed)" "$(count unviable)" "$(count timeout)"
    done
}
