package asmcrypto

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
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
