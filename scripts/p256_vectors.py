#!/usr/bin/env python3
"""Convert published P-256 (secp256r1) ECDSA test vectors into the JSON-lines
files under tests/data/ that the P256VERIFY (EIP-7951, address 0x100) tests read.

Standard library only. Nothing here fetches anything: the inputs are JSON files
taken from public repositories and named on the command line, each as
SOURCE=FILE, where SOURCE is the `repo@commit:path` string recorded with every
vector and FILE is a local copy of that path at that commit, e.g. made with
`git --git-dir=<mirror> show <commit>:<path> > FILE`.

The inputs used for the committed files (see tests/data/README.md):

  precompile vectors (a JSON list of {"Input", "Expected", "Name", ...}):
    ethereum/go-ethereum@02b73d4ea7181464175e0a6cbecc0a3a2655a562:core/vm/testdata/precompiles/p256Verify.json
    ethereum/EIPs@f767a1e8078e17c9b381a91d35a09492189ede1b:assets/eip-7951/test-vectors.json
  Wycheproof (a JSON object with "testGroups"):
    C2SP/wycheproof@dac1dd4729fd1f8dd9e1e9f3dce51d783da6c166:testvectors_v1/ecdsa_secp256r1_sha256_p1363_test.json
    C2SP/wycheproof@dac1dd4729fd1f8dd9e1e9f3dce51d783da6c166:testvectors_v1/ecdsa_secp256r1_sha256_test.json

Usage:
  python3 scripts/p256_vectors.py [--out-dir tests/data] SOURCE=FILE...
      The kind of each file is read from its shape. Precompile files are
      merged in the order given (the first source of an (input, expected)
      pair is kept; later ones are listed in `also_in`).
      Writes precompile_p256verify.jsonl and wycheproof_p256_sha256.jsonl.
  python3 scripts/p256_vectors.py --check [--out-dir tests/data]
      Re-verifies the committed files with the verifier below: every
      `expected` / `expected_precompile` must equal its verdict (vectors that
      carry a `rule_note` are reported, not failed).

The verifier (`p256verify`) implements EIP-7951 exactly as the EIP states it:
input exactly 160 bytes h ‖ r ‖ s ‖ qx ‖ qy; 0 < r < n and 0 < s < n;
qx, qy < p; (qx, qy) on the curve and not (0, 0); R' = (h·s⁻¹)G + (r·s⁻¹)Q
not the point at infinity; valid iff x(R') ≡ r (mod n). Valid gives 31 zero
bytes then 0x01, everything else the empty output.
"""

import hashlib
import json
import os
import sys

# ---------------------------------------------------------------- P-256 curve
P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
A = P - 3
B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
GX = 0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296
GY = 0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5

VALID = "00" * 31 + "01"
INVALID = ""

# Points are affine (x, y) tuples; None is the point at infinity. Plain affine
# arithmetic with modular inverses: slow but short, and every special case
# (P + P, P + (-P), infinity) is explicit.


def on_curve(x, y):
    return (y * y - (x * x * x + A * x + B)) % P == 0


def point_add(p1, p2):
    if p1 is None:
        return p2
    if p2 is None:
        return p1
    x1, y1 = p1
    x2, y2 = p2
    if x1 == x2:
        if (y1 + y2) % P == 0:
            return None  # P + (-P), including doubling a point with y = 0
        lam = (3 * x1 * x1 + A) * pow(2 * y1, -1, P) % P  # doubling
    else:
        lam = (y2 - y1) * pow(x2 - x1, -1, P) % P
    x3 = (lam * lam - x1 - x2) % P
    y3 = (lam * (x1 - x3) - y1) % P
    return (x3, y3)


def scalar_mul(k, point):
    result = None
    addend = point
    while k:
        if k & 1:
            result = point_add(result, addend)
        addend = point_add(addend, addend)
        k >>= 1
    return result


assert on_curve(GX, GY)
assert scalar_mul(N, (GX, GY)) is None


def p256verify(data):
    """EIP-7951 P256VERIFY on raw input bytes: VALID or INVALID (hex)."""
    if len(data) != 160:
        return INVALID
    h, r, s, qx, qy = (int.from_bytes(data[i:i + 32], "big") for i in range(0, 160, 32))
    if not (0 < r < N and 0 < s < N):
        return INVALID
    if not (qx < P and qy < P):
        return INVALID
    if not on_curve(qx, qy):
        return INVALID
    if (qx, qy) == (0, 0):
        return INVALID  # (not reachable: (0, 0) is not on P-256; checked as the EIP says)
    s1 = pow(s, -1, N)
    rp = point_add(scalar_mul(h * s1 % N, (GX, GY)), scalar_mul(r * s1 % N, (qx, qy)))
    if rp is None:
        return INVALID
    return VALID if rp[0] % N == r else INVALID


def why_invalid(data):
    """Short reason string for an INVALID verdict (used in notes)."""
    if len(data) != 160:
        return "input length %d, not 160" % len(data)
    h, r, s, qx, qy = (int.from_bytes(data[i:i + 32], "big") for i in range(0, 160, 32))
    if not 0 < r < N:
        return "r not in [1, n-1]"
    if not 0 < s < N:
        return "s not in [1, n-1]"
    if qx >= P or qy >= P:
        return "public key coordinate >= p"
    if not on_curve(qx, qy):
        return "public key not on the curve"
    s1 = pow(s, -1, N)
    rp = point_add(scalar_mul(h * s1 % N, (GX, GY)), scalar_mul(r * s1 % N, (qx, qy)))
    if rp is None:
        return "R' is the point at infinity"
    return "x(R') mod n != r"


# ------------------------------------------------------------- strict DER
class NotDer(Exception):
    """The bytes are not the canonical (DER) encoding of SEQUENCE{INTEGER, INTEGER}."""


class NegativeInteger(Exception):
    """Canonical DER, but r or s is a negative INTEGER."""


def _der_len(b, i):
    if i >= len(b):
        raise NotDer("truncated length")
    first = b[i]
    if first < 0x80:
        return first, i + 1
    count = first & 0x7F
    if count == 0:
        raise NotDer("indefinite length")
    if i + 1 + count > len(b):
        raise NotDer("truncated long length")
    value = int.from_bytes(b[i + 1:i + 1 + count], "big")
    if b[i + 1] == 0 or value < 0x80:
        raise NotDer("non-minimal length")
    return value, i + 1 + count


def _der_int(b, i):
    if i >= len(b) or b[i] != 0x02:
        raise NotDer("expected INTEGER")
    length, i = _der_len(b, i + 1)
    if length == 0 or i + length > len(b):
        raise NotDer("bad INTEGER length")
    body = b[i:i + length]
    if length > 1 and ((body[0] == 0x00 and body[1] < 0x80) or (body[0] == 0xFF and body[1] >= 0x80)):
        raise NotDer("non-minimal INTEGER")
    return int.from_bytes(body, "big", signed=True), i + length


def parse_der_signature(b):
    """(r, s) from a canonical DER ECDSA signature; raises NotDer / NegativeInteger."""
    if not b or b[0] != 0x30:
        raise NotDer("expected SEQUENCE")
    length, i = _der_len(b, 1)
    if i + length != len(b):
        raise NotDer("SEQUENCE length does not match the signature length")
    r, i = _der_int(b, i)
    s, i = _der_int(b, i)
    if i != len(b):
        raise NotDer("extra data inside SEQUENCE")
    if r < 0 or s < 0:
        raise NegativeInteger()
    return r, s


# ------------------------------------------------------------ conversion
def load(arg):
    if "=" not in arg:
        sys.exit("argument %r: expected SOURCE=FILE" % arg)
    source, path = arg.split("=", 1)
    with open(path) as f:
        return source, json.load(f)


def convert_precompile(inputs):
    """Merge precompile vector lists; returns (rows, report lines)."""
    rows, by_key, report = [], {}, []
    seen_input = {}
    for source, vectors in inputs:
        fresh = 0
        for v in vectors:
            inp = v["Input"].lower().removeprefix("0x")
            exp = v["Expected"].lower().removeprefix("0x")
            key = (inp, exp)
            if inp in seen_input and seen_input[inp] != exp:
                report.append("CONFLICT: %s %r expects %r, an earlier source %r" % (source, v["Name"], exp, seen_input[inp]))
            seen_input.setdefault(inp, exp)
            if key in by_key:
                row = by_key[key]
                if row["source"] != source and source not in row["also_in"]:
                    row["also_in"].append(source)
                continue
            fresh += 1
            row = {"source": source, "name": v["Name"], "input": inp, "expected": exp, "also_in": []}
            verdict = p256verify(bytes.fromhex(inp))
            if verdict != exp:
                note = "published expected %s, EIP-7951 verifier gives %s (%s)" % (
                    "valid" if exp == VALID else repr(exp), "valid" if verdict == VALID else "invalid: " + why_invalid(bytes.fromhex(inp)), verdict)
                row["rule_note"] = note
                report.append("MISMATCH: %s %r: %s" % (source, v["Name"], note))
            by_key[key] = row
            rows.append(row)
        report.append("%s: %d vectors, %d new (input, expected) pairs" % (source, len(vectors), fresh))
    for row in rows:
        if not row["also_in"]:
            del row["also_in"]
    return rows, report


def convert_wycheproof(inputs):
    rows, report = [], []
    for source, doc in inputs:
        schema = doc.get("schema", "")
        p1363 = "p1363" in schema
        counts = {"cases": 0, "written": 0, "not_der": 0, "negative": 0, "too_large": 0, "bad_p1363_length": 0, "differs": 0}
        for group in doc["testGroups"]:
            key = bytes.fromhex(group["publicKey"]["uncompressed"])
            if len(key) != 65 or key[0] != 0x04:
                sys.exit("%s: unexpected public key encoding" % source)
            qxqy = key[1:]
            if group.get("sha") != "SHA-256":
                sys.exit("%s: unexpected hash %r" % (source, group.get("sha")))
            for tc in group["tests"]:
                counts["cases"] += 1
                sig = bytes.fromhex(tc["sig"])
                if p1363:
                    if len(sig) != 64:
                        counts["bad_p1363_length"] += 1
                        continue
                    r = int.from_bytes(sig[:32], "big")
                    s = int.from_bytes(sig[32:], "big")
                else:
                    try:
                        r, s = parse_der_signature(sig)
                    except NotDer:
                        counts["not_der"] += 1
                        continue
                    except NegativeInteger:
                        counts["negative"] += 1
                        continue
                    if r >= 1 << 256 or s >= 1 << 256:
                        counts["too_large"] += 1
                        continue
                h = hashlib.sha256(bytes.fromhex(tc["msg"])).digest()
                data = h + r.to_bytes(32, "big") + s.to_bytes(32, "big") + qxqy
                verdict = p256verify(data)
                row = {
                    "source": source,
                    "tc_id": tc["tcId"],
                    "comment": tc["comment"],
                    "flags": tc["flags"],
                    "result": tc["result"],
                    "encoding": "p1363" if p1363 else "der",
                    "input": data.hex(),
                    "expected_precompile": verdict,
                }
                published_valid = tc["result"] == "valid"
                if tc["result"] != "acceptable" and published_valid != (verdict == VALID):
                    counts["differs"] += 1
                    row["differs_because"] = (
                        "Wycheproof: %s; EIP-7951 verdict: %s" % (tc["result"], "valid" if verdict == VALID else "invalid (" + why_invalid(data) + ")"))
                    report.append("DIFFERS: %s tc %d %r: %s" % (source, tc["tcId"], tc["comment"], row["differs_because"]))
                rows.append(row)
                counts["written"] += 1
        report.append("%s: %s" % (source, ", ".join("%s %d" % kv for kv in counts.items())))
    return rows, report


def write_jsonl(path, rows):
    with open(path, "w") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


def check(out_dir):
    bad = 0
    for name, field in (("precompile_p256verify.jsonl", "expected"), ("wycheproof_p256_sha256.jsonl", "expected_precompile")):
        path = os.path.join(out_dir, name)
        n = 0
        with open(path) as f:
            for line in f:
                row = json.loads(line)
                n += 1
                verdict = p256verify(bytes.fromhex(row["input"]))
                if verdict != row[field]:
                    if "rule_note" in row:
                        print("noted: %s %s: %s" % (name, row.get("name", row.get("tc_id")), row["rule_note"]))
                    else:
                        bad += 1
                        print("MISMATCH: %s %s" % (name, row.get("name", row.get("tc_id"))))
        print("%s: %d rows checked" % (name, n))
    return bad


def main(argv):
    out_dir = "tests/data"
    if "--out-dir" in argv:
        i = argv.index("--out-dir")
        out_dir = argv[i + 1]
        del argv[i:i + 2]
    if argv == ["--check"]:
        sys.exit(1 if check(out_dir) else 0)
    if not argv or any(a.startswith("-") for a in argv):
        sys.exit(__doc__)
    precompile, wycheproof = [], []
    for arg in argv:
        source, doc = load(arg)
        if isinstance(doc, list):
            precompile.append((source, doc))
        elif isinstance(doc, dict) and "testGroups" in doc:
            wycheproof.append((source, doc))
        else:
            sys.exit("%s: neither a precompile vector list nor a Wycheproof file" % arg)
    prows, preport = convert_precompile(precompile)
    wrows, wreport = convert_wycheproof(wycheproof)
    write_jsonl(os.path.join(out_dir, "precompile_p256verify.jsonl"), prows)
    write_jsonl(os.path.join(out_dir, "wycheproof_p256_sha256.jsonl"), wrows)
    for line in preport + wreport:
        print(line)
    print("precompile_p256verify.jsonl: %d rows (valid %d, empty %d)" % (
        len(prows), sum(r["expected"] == VALID for r in prows), sum(r["expected"] == "" for r in prows)))
    print("wycheproof_p256_sha256.jsonl: %d rows (precompile-valid %d, empty %d)" % (
        len(wrows), sum(r["expected_precompile"] == VALID for r in wrows), sum(r["expected_precompile"] == "" for r in wrows)))


if __name__ == "__main__":
    main(sys.argv[1:])
