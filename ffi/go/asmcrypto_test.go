package asmcrypto

import (
	"bufio"
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

// The bundled published data of the repository (tests/data); see its README in the
// project's shared vectors.
var dataDir = filepath.Join("..", "..", "tests", "data")

type txVector struct {
	Hash    string `json:"hash"`
	R       string `json:"r"`
	S       string `json:"s"`
	Recid   int    `json:"recid"`
	Address string `json:"address"`
}

type precompileVector struct {
	Name     string `json:"name"`
	Input    string `json:"input"`
	Expected string `json:"expected"`
}

// readLines decodes every JSON line of file into a new T; it fails the test if the file
// is missing or holds fewer than min lines (nothing is skipped).
func readLines[T any](t *testing.T, file string, min int) []T {
	t.Helper()
	f, err := os.Open(filepath.Join(dataDir, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s line %d: %v", file, len(out)+1, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(out) < min {
		t.Fatalf("%s: %d lines, expected at least %d", file, len(out), min)
	}
	return out
}

func unhex(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatalf("hex %q: %v", s, err)
	}
	return b
}

// parts returns the message and the 65-byte signature r ‖ s ‖ recid of a transaction vector.
func (v txVector) parts(t *testing.T) (msg, sig, addr []byte) {
	msg = unhex(t, v.Hash)
	sig = append(append(unhex(t, v.R), unhex(t, v.S)...), byte(v.Recid))
	return msg, sig, unhex(t, v.Address)
}

func TestRecoverPubkeyTransactions(t *testing.T) {
	for i, v := range readLines[txVector](t, "tx_senders.jsonl", 100) {
		msg, sig, want := v.parts(t)
		pub, err := RecoverPubkey(msg, sig)
		if err != nil || len(pub) != 65 || pub[0] != 4 {
			t.Fatalf("tx %d: RecoverPubkey = %x, %v", i, pub, err)
		}
		h := Keccak256(pub[1:])
		if !bytes.Equal(h[12:], want) {
			t.Errorf("tx %d: address %x, want %x", i, h[12:], want)
		}
		for _, v := range []byte{sig[64], sig[64] + 27} {
			s := append([]byte{}, sig...)
			s[64] = v
			addr, err := RecoverAddress(msg, s)
			if err != nil || !bytes.Equal(addr[:], want) {
				t.Errorf("tx %d v %d: RecoverAddress = %x, %v", i, v, addr, err)
			}
		}
	}
}

func TestPrecompileVectors(t *testing.T) {
	withOutput := 0
	for _, v := range readLines[precompileVector](t, "precompile_ecrecover.jsonl", 100) {
		input, want := unhex(t, v.Input), unhex(t, v.Expected)
		got := EcrecoverPrecompile(input)
		if len(want) == 0 {
			if got != nil {
				t.Errorf("%s: got %x, want the empty output", v.Name, got)
			}
		} else if !bytes.Equal(got, want) {
			t.Errorf("%s: got %x, want %x", v.Name, got, want)
		}
		// With a valid v word, RecoverPubkey must agree (its failure is ErrRecoverFailed).
		in := make([]byte, 128)
		copy(in, input)
		if !bytes.Equal(in[32:63], make([]byte, 31)) || (in[63] != 27 && in[63] != 28) {
			continue
		}
		sig := append(append([]byte{}, in[64:128]...), in[63]-27)
		pub, err := RecoverPubkey(in[:32], sig)
		if len(want) == 0 {
			if !errors.Is(err, ErrRecoverFailed) || pub != nil {
				t.Errorf("%s: RecoverPubkey = %x, %v; want ErrRecoverFailed", v.Name, pub, err)
			}
			continue
		}
		withOutput++
		if err != nil {
			t.Fatalf("%s: RecoverPubkey: %v", v.Name, err)
		}
		h := Keccak256(pub[1:])
		if !bytes.Equal(h[12:], want[12:]) {
			t.Errorf("%s: RecoverPubkey gives address %x, want %x", v.Name, h[12:], want[12:])
		}
	}
	if withOutput == 0 {
		t.Fatal("no vector with an output was checked through RecoverPubkey")
	}
}

type errCase struct {
	name     string
	msg, sig []byte
	err      error
	text     string
}

// The checks of go-ethereum's RecoverPubkey, in its order: message length, then signature
// length, then recovery id, then the recovery itself.
func TestRecoverPubkeyErrors(t *testing.T) {
	txs := readLines[txVector](t, "tx_senders.jsonl", 100)
	msg, sig, _ := txs[0].parts(t)
	cases := []errCase{
		{"nil msg and sig", nil, nil, ErrInvalidMsgLen, "invalid message length, need 32 bytes"},
		{"msg 31", msg[:31], sig, ErrInvalidMsgLen, "invalid message length, need 32 bytes"},
		{"msg 33", append(append([]byte{}, msg...), 0), sig, ErrInvalidMsgLen, ""},
		{"msg 31, sig 64", msg[:31], sig[:64], ErrInvalidMsgLen, ""},
		{"sig nil", msg, nil, ErrInvalidSignatureLen, "invalid signature length"},
		{"sig 64", msg, sig[:64], ErrInvalidSignatureLen, ""},
		{"sig 66", msg, append(append([]byte{}, sig...), 0), ErrInvalidSignatureLen, ""},
		{"r zero", msg, append(make([]byte, 32), sig[32:]...), ErrRecoverFailed, "recovery failed"},
		{"s zero", msg, append(append(append([]byte{}, sig[:32]...), make([]byte, 32)...), 0), ErrRecoverFailed, ""},
	}
	ff := append(bytes.Repeat([]byte{0xff}, 64), 0)
	cases = append(cases, errCase{"r, s = 2^256-1", msg, ff, ErrRecoverFailed, ""})
	for v := 4; v < 256; v++ {
		s := append([]byte{}, sig...)
		s[64] = byte(v)
		cases = append(cases, errCase{"recid", msg, s, ErrInvalidRecoveryID, "invalid signature recovery id"})
	}
	for _, c := range cases {
		pub, err := RecoverPubkey(c.msg, c.sig)
		if err != c.err || pub != nil {
			t.Errorf("%s: RecoverPubkey = %x, %v; want %v", c.name, pub, err, c.err)
		}
		if c.text != "" && (err == nil || err.Error() != c.text) {
			t.Errorf("%s: error text %q, want %q", c.name, err, c.text)
		}
	}
	// Recovery ids 2 and 3 are accepted and fail only in the recovery (r ≥ p − n here).
	for _, v := range []byte{2, 3} {
		s := append([]byte{}, sig...)
		s[64] = v
		if _, err := RecoverPubkey(msg, s); err != ErrRecoverFailed {
			t.Errorf("recid %d: %v, want ErrRecoverFailed", v, err)
		}
	}
	if _, err := RecoverAddress(msg, append(append([]byte{}, sig[:64]...), 29)); err != ErrInvalidRecoveryID {
		t.Errorf("RecoverAddress v 29: %v", err)
	}
}

func TestRecoverAddressesMatchesRecoverAddress(t *testing.T) {
	txs := readLines[txVector](t, "tx_senders.jsonl", 100)
	for _, n := range []int{0, 1, 7, 8, 9, 64, len(txs), 600} {
		msgs := make([][32]byte, n)
		sigs := make([][65]byte, n)
		for i := 0; i < n; i++ {
			msg, sig, _ := txs[i%len(txs)].parts(t)
			switch i % 5 {
			case 1:
				sig[64] += 27
			case 2:
				sig[5] ^= 1 // another r: another key, or a failure
			case 3:
				sig[64] = 9 // bad v
			}
			copy(msgs[i][:], msg)
			copy(sigs[i][:], sig)
		}
		addrs, ok, err := RecoverAddresses(msgs, sigs)
		if err != nil || len(addrs) != n || len(ok) != n {
			t.Fatalf("n %d: %d, %d, %v", n, len(addrs), len(ok), err)
		}
		for i := 0; i < n; i++ {
			want, werr := RecoverAddress(msgs[i][:], sigs[i][:])
			if ok[i] != (werr == nil) || addrs[i] != want {
				t.Errorf("n %d entry %d: batch %x %v, single %x %v", n, i, addrs[i], ok[i], want, werr)
			}
		}
	}
	if _, _, err := RecoverAddresses(make([][32]byte, 2), make([][65]byte, 1)); err == nil {
		t.Error("RecoverAddresses accepted different lengths")
	}
}

func TestKeccak256KnownAnswers(t *testing.T) {
	for in, want := range map[string]string{
		"":    "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470",
		"abc": "4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45",
	} {
		if h := Keccak256([]byte(in)); hex.EncodeToString(h[:]) != want {
			t.Errorf("Keccak256(%q) = %x", in, h)
		}
	}
	if h := Keccak256(nil); hex.EncodeToString(h[:]) != "c5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470" {
		t.Errorf("Keccak256(nil) = %x", h)
	}
}

func TestPrecompileEmptyAndShortInputs(t *testing.T) {
	if out := EcrecoverPrecompile(nil); out != nil {
		t.Errorf("empty input: %x", out)
	}
	if out := EcrecoverPrecompile(make([]byte, 128)); out != nil {
		t.Errorf("zero input: %x", out)
	}
}

func TestBackend(t *testing.T) {
	if b := Backend(); b != "scalar" && b != "avx512-ifma" && b != "avx512f" {
		t.Errorf("Backend() = %q", b)
	}
	t.Logf("backend: %s", Backend())
}

// P-256 (P256VERIFY, EIP-7951).

type p256Vector struct {
	Name               string `json:"name"`
	TcID               int    `json:"tc_id"`
	Input              string `json:"input"`
	Expected           string `json:"expected"`
	ExpectedPrecompile string `json:"expected_precompile"`
}

var (
	p256 = elliptic.P256().Params()
	// The precompile's output for a valid signature: 31 zero bytes, then 1.
	p256Success = append(make([]byte, 31), 1)
)

// p256Vectors reads both P-256 files: the published precompile vectors and Wycheproof's
// P-256 SHA-256 cases (each input 160 bytes, each expected output "" or the success word).
func p256Vectors(t *testing.T) (inputs [][]byte, valid []bool) {
	t.Helper()
	for _, file := range []struct {
		name string
		min  int
	}{{"precompile_p256verify.jsonl", 200}, {"wycheproof_p256_sha256.jsonl", 400}} {
		for _, v := range readLines[p256Vector](t, file.name, file.min) {
			input := unhex(t, v.Input)
			want := unhex(t, v.Expected+v.ExpectedPrecompile)
			if len(input) != 160 || (len(want) != 0 && !bytes.Equal(want, p256Success)) {
				t.Fatalf("%s %s/%d: input %d bytes, expected %x", file.name, v.Name, v.TcID, len(input), want)
			}
			inputs = append(inputs, input)
			valid = append(valid, len(want) != 0)
		}
	}
	return inputs, valid
}

// p256RangeError is the model of EIP-7951's range checks: the error of the first that
// fails, or nil where the curve check and the arithmetic decide.
func p256RangeError(input []byte) error {
	r := new(big.Int).SetBytes(input[32:64])
	s := new(big.Int).SetBytes(input[64:96])
	x := new(big.Int).SetBytes(input[96:128])
	y := new(big.Int).SetBytes(input[128:160])
	switch {
	case r.Sign() == 0 || r.Cmp(p256.N) >= 0:
		return ErrP256InvalidR
	case s.Sign() == 0 || s.Cmp(p256.N) >= 0:
		return ErrP256InvalidS
	case x.Cmp(p256.P) >= 0 || y.Cmp(p256.P) >= 0:
		return ErrP256KeyCoordinateOutOfRange
	}
	return nil
}

// p256Oracle is Go's own crypto/ecdsa on elliptic.P256(), with EIP-7951's range and curve
// checks in front: the error P256Verify must return for input.
func p256Oracle(input []byte) error {
	if err := p256RangeError(input); err != nil {
		return err
	}
	x := new(big.Int).SetBytes(input[96:128])
	y := new(big.Int).SetBytes(input[128:160])
	if !elliptic.P256().IsOnCurve(x, y) {
		return ErrP256KeyNotOnCurve
	}
	pub := &ecdsa.PublicKey{Curve: elliptic.P256(), X: x, Y: y}
	r := new(big.Int).SetBytes(input[32:64])
	s := new(big.Int).SetBytes(input[64:96])
	if !ecdsa.Verify(pub, input[:32], r, s) {
		return ErrP256Mismatch
	}
	return nil
}

// checkP256 runs input through P256Verify (split), P256VerifyPrecompile and, later, the
// batch; it returns P256Verify's error.
func checkP256(t *testing.T, what string, input []byte, want error) {
	t.Helper()
	err := P256Verify(input[:32], input[32:96], input[96:])
	if err != want {
		t.Errorf("%s: P256Verify = %v, want %v", what, err, want)
	}
	out := P256VerifyPrecompile(input)
	if (want == nil) != bytes.Equal(out, p256Success) || (want != nil && out != nil) {
		t.Errorf("%s: P256VerifyPrecompile = %x (want error %v)", what, out, want)
	}
}

func TestP256Vectors(t *testing.T) {
	inputs, valid := p256Vectors(t)
	batch := make([][160]byte, len(inputs))
	seen := map[error]int{}
	for i, input := range inputs {
		err := P256Verify(input[:32], input[32:96], input[96:])
		seen[err]++
		if (err == nil) != valid[i] {
			t.Errorf("vector %d: P256Verify = %v, want valid %v", i, err, valid[i])
		}
		if m := p256RangeError(input); m != nil && err != m {
			t.Errorf("vector %d: P256Verify = %v, the range checks say %v", i, err, m)
		}
		if err != nil && err != ErrP256InvalidR && err != ErrP256InvalidS &&
			err != ErrP256KeyCoordinateOutOfRange && err != ErrP256KeyNotOnCurve && err != ErrP256Mismatch {
			t.Errorf("vector %d: P256Verify = %v", i, err)
		}
		// Go's crypto/ecdsa agrees with every vector.
		if o := p256Oracle(input); o != err {
			t.Errorf("vector %d: P256Verify = %v, crypto/ecdsa says %v", i, err, o)
		}
		out := P256VerifyPrecompile(input)
		if valid[i] != bytes.Equal(out, p256Success) || (!valid[i] && out != nil) {
			t.Errorf("vector %d: P256VerifyPrecompile = %x, want valid %v", i, out, valid[i])
		}
		// Any other length: the empty output.
		if P256VerifyPrecompile(input[:159]) != nil || P256VerifyPrecompile(append(append([]byte{}, input...), 0)) != nil {
			t.Errorf("vector %d: 159 or 161 bytes gave an output", i)
		}
		copy(batch[i][:], input)
	}
	got := P256VerifyBatch(batch)
	for i := range inputs {
		if got[i] != valid[i] {
			t.Errorf("batch entry %d: %v, want %v", i, got[i], valid[i])
		}
	}
	for _, e := range []error{nil, ErrP256InvalidR, ErrP256InvalidS, ErrP256KeyNotOnCurve, ErrP256Mismatch} {
		if seen[e] == 0 {
			t.Errorf("no vector gave %v", e)
		}
	}
	t.Logf("%d vectors: %v", len(inputs), seen)
}

// p256Sign signs hash with the private key d and the nonce k (both in [1, n-1]) and returns
// r ‖ s, or nil for the rare r = 0 or s = 0.
func p256Sign(hash []byte, d, k *big.Int) []byte {
	n := p256.N
	rx, _ := elliptic.P256().ScalarBaseMult(k.FillBytes(make([]byte, 32)))
	r := new(big.Int).Mod(rx, n)
	e := new(big.Int).SetBytes(hash)
	s := new(big.Int).Mul(r, d)
	s.Add(s, e)
	s.Mul(s, new(big.Int).ModInverse(k, n))
	s.Mod(s, n)
	if r.Sign() == 0 || s.Sign() == 0 {
		return nil
	}
	return append(r.FillBytes(make([]byte, 32)), s.FillBytes(make([]byte, 32))...)
}

func p256Scalar(rng *rand.Rand) *big.Int {
	for {
		b := make([]byte, 32)
		rng.Read(b)
		if k := new(big.Int).SetBytes(b); k.Sign() > 0 && k.Cmp(p256.N) < 0 {
			return k
		}
	}
}

// Seeded signatures, made here with math/big and elliptic.P256, then spoiled in ways that
// hit every check; crypto/ecdsa (behind the range and curve checks) is the oracle for each.
func TestP256AgainstCryptoECDSA(t *testing.T) {
	rng := rand.New(rand.NewSource(7951))
	const count = 3000
	const variants = 16
	batch := make([][160]byte, 0, count)
	var want []bool
	seen := map[error]int{}
	for i := 0; i < count; i++ {
		d := p256Scalar(rng)
		qx, qy := elliptic.P256().ScalarBaseMult(d.FillBytes(make([]byte, 32)))
		hash := make([]byte, 32)
		rng.Read(hash)
		variant := i % variants
		switch variant {
		case 13:
			hash = make([]byte, 32) // h = 0
		case 14:
			hash = bytes.Repeat([]byte{0xff}, 32) // h >= n
			hash[31] = byte(rng.Intn(256))
		}
		sig := p256Sign(hash, d, p256Scalar(rng))
		if sig == nil {
			continue
		}
		input := append(append(append([]byte{}, hash...), sig...), append(qx.FillBytes(make([]byte, 32)), qy.FillBytes(make([]byte, 32))...)...)
		switch variant {
		case 3: // s -> n - s: still valid
			s := new(big.Int).Sub(p256.N, new(big.Int).SetBytes(input[64:96]))
			s.FillBytes(input[64:96])
		case 4: // another hash
			input[rng.Intn(32)] ^= byte(1 << uint(rng.Intn(8)))
		case 5: // r = 0 or r >= n
			if rng.Intn(2) == 0 {
				copy(input[32:64], make([]byte, 32))
			} else {
				new(big.Int).Add(p256.N, big.NewInt(int64(rng.Intn(3)))).FillBytes(input[32:64])
			}
		case 6: // s = 0 or s >= n
			if rng.Intn(2) == 0 {
				copy(input[64:96], make([]byte, 32))
			} else {
				copy(input[64:96], bytes.Repeat([]byte{0xff}, 32))
			}
		case 7: // r random
			rng.Read(input[32:64])
		case 8: // s random
			rng.Read(input[64:96])
		case 9: // a coordinate >= p
			off := 96 + 32*rng.Intn(2)
			new(big.Int).Add(p256.P, big.NewInt(int64(rng.Intn(1000)))).FillBytes(input[off : off+32])
		case 10: // off the curve
			input[159] ^= 1
		case 11: // (0, 0)
			copy(input[96:], make([]byte, 64))
		case 12: // another key on the curve
			x, y := elliptic.P256().ScalarBaseMult(p256Scalar(rng).FillBytes(make([]byte, 32)))
			x.FillBytes(input[96:128])
			y.FillBytes(input[128:160])
		case 15: // everything random
			rng.Read(input[32:])
		}
		wantErr := p256Oracle(input)
		if variant <= 3 || variant == 13 || variant == 14 {
			if wantErr != nil {
				t.Fatalf("case %d (variant %d): the oracle refuses a signature made here: %v", i, variant, wantErr)
			}
		}
		seen[wantErr]++
		checkP256(t, fmt.Sprintf("case %d (variant %d)", i, variant), input, wantErr)
		var b [160]byte
		copy(b[:], input)
		batch = append(batch, b)
		want = append(want, wantErr == nil)
	}
	got := P256VerifyBatch(batch)
	for i := range batch {
		if got[i] != want[i] {
			t.Errorf("batch entry %d: %v, want %v", i, got[i], want[i])
		}
	}
	for _, e := range []error{nil, ErrP256InvalidR, ErrP256InvalidS, ErrP256KeyCoordinateOutOfRange, ErrP256KeyNotOnCurve, ErrP256Mismatch} {
		if seen[e] < 50 {
			t.Errorf("only %d cases gave %v", seen[e], e)
		}
	}
	t.Logf("%d cases against crypto/ecdsa: %v", len(batch), seen)
}

func TestP256LengthsAndEmptyInputs(t *testing.T) {
	inputs, valid := p256Vectors(t)
	var good []byte
	for i, in := range inputs {
		if valid[i] {
			good = in
			break
		}
	}
	hash, sig, key := good[:32], good[32:96], good[96:]
	cases := []struct {
		name           string
		hash, sig, key []byte
		err            error
	}{
		{"valid", hash, sig, key, nil},
		{"nil everything", nil, nil, nil, ErrInvalidMsgLen},
		{"hash 31", hash[:31], sig, key, ErrInvalidMsgLen},
		{"hash 33", good[:33], sig, key, ErrInvalidMsgLen},
		{"sig 63", hash, sig[:63], key, ErrInvalidSignatureLen},
		{"sig 65", hash, good[32:97], key, ErrInvalidSignatureLen},
		{"sig nil", hash, nil, key, ErrInvalidSignatureLen},
		{"key 63", hash, sig, key[:63], ErrInvalidKeyLen},
		{"key 65 (0x04 prefix)", hash, sig, append([]byte{4}, key...), ErrInvalidKeyLen},
		{"key nil", hash, sig, nil, ErrInvalidKeyLen},
	}
	for _, c := range cases {
		if err := P256Verify(c.hash, c.sig, c.key); err != c.err {
			t.Errorf("%s: %v, want %v", c.name, err, c.err)
		}
	}
	for _, n := range []int{0, 1, 32, 128, 159, 161, 192, 320} {
		in := make([]byte, n)
		copy(in, good)
		if out := P256VerifyPrecompile(in); out != nil {
			t.Errorf("%d bytes: %x", n, out)
		}
	}
	if out := P256VerifyPrecompile(nil); out != nil {
		t.Errorf("nil: %x", out)
	}
	if out := P256VerifyPrecompile(make([]byte, 160)); out != nil {
		t.Errorf("zeros: %x", out)
	}
	if v := P256VerifyBatch(nil); v == nil || len(v) != 0 {
		t.Errorf("P256VerifyBatch(nil) = %v", v)
	}
	// The batch against the single call, at lengths around the crate's chunks.
	for _, n := range []int{1, 2, 63, 64, 65, 255, 256, 257, 600} {
		b := make([][160]byte, n)
		for i := range b {
			copy(b[i][:], inputs[(i*7)%len(inputs)])
			if i%5 == 2 {
				b[i][i%32] ^= 1
			}
		}
		got := P256VerifyBatch(b)
		if len(got) != n {
			t.Fatalf("n %d: %d results", n, len(got))
		}
		for i := range b {
			if single := P256Verify(b[i][:32], b[i][32:96], b[i][96:]) == nil; got[i] != single {
				t.Errorf("n %d entry %d: batch %v, single %v", n, i, got[i], single)
			}
		}
	}
}
