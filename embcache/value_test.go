package embcache

import (
	"encoding/binary"
	"errors"
	"math"
	"testing"
)

// bitsEqual compares float32 bit patterns, so NaN payloads and -0 count.
func bitsEqual(a, b []float32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) {
			return false
		}
	}
	return true
}

func TestValueRoundTripBits(t *testing.T) {
	k := TextKey(TextInput{Text: "a"})
	v := []float32{0, float32(math.Copysign(0, -1)), 1.5, -3e-45, float32(math.Inf(1)),
		float32(math.Inf(-1)), math.Float32frombits(0x7fc00001), math.Float32frombits(0xffbfffff), math.MaxFloat32}
	b := encodeValue(k, v)
	if len(b) != valueOverhead+4*len(v) {
		t.Fatalf("encoded %d bytes, want %d", len(b), valueOverhead+4*len(v))
	}
	got, err := decodeValue(k, b)
	if err != nil {
		t.Fatal(err)
	}
	if !bitsEqual(got, v) {
		t.Fatalf("round trip %v, want %v", got, v)
	}
	if got, err := decodeValue(k, encodeValue(k, nil)); err != nil || len(got) != 0 {
		t.Fatalf("empty vector: %v, %v", got, err)
	}
}

// TestValueEveryByteFlipDetected flips each bit of an encoded value in
// turn: CRC-32C detects every error burst up to 32 bits, and the version
// and length fields are checked on their own.
func TestValueEveryByteFlipDetected(t *testing.T) {
	k := TextKey(TextInput{Text: "b"})
	b := encodeValue(k, []float32{1, 2, 3, 4})
	for i := range b {
		for bit := 0; bit < 8; bit++ {
			c := append([]byte(nil), b...)
			c[i] ^= 1 << bit
			if _, err := decodeValue(k, c); !errors.Is(err, errCorrupt) {
				t.Fatalf("flip byte %d bit %d: err %v, want corrupt", i, bit, err)
			}
		}
	}
	other := TextKey(TextInput{Text: "c"})
	if _, err := decodeValue(other, b); !errors.Is(err, errCorrupt) {
		t.Fatalf("value under another key: err %v, want corrupt", err)
	}
	for _, n := range []int{0, 4, len(b) - 1} {
		if _, err := decodeValue(k, b[:n]); !errors.Is(err, errCorrupt) {
			t.Fatalf("truncated to %d bytes: err %v, want corrupt", n, err)
		}
	}
}

// FuzzValue checks that any vector round-trips bit for bit, and that
// decoding arbitrary bytes either fails or yields a value whose encoding
// is those very bytes (so nothing but a value this code wrote is read as
// numbers).
func FuzzValue(f *testing.F) {
	f.Add([]byte{}, "k")
	f.Add([]byte{0, 0, 0x80, 0x3f, 0xff, 0xff, 0xff, 0x7f}, "key")
	f.Add(encodeValue(Key{}, []float32{1, 2}), "")
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		k := TextKey(TextInput{Text: text})
		v := make([]float32, len(data)/4)
		for i := range v {
			v[i] = math.Float32frombits(binary.LittleEndian.Uint32(data[4*i:]))
		}
		got, err := decodeValue(k, encodeValue(k, v))
		if err != nil || !bitsEqual(got, v) {
			t.Fatalf("round trip of %d floats: %v, err %v", len(v), got, err)
		}
		if got, err := decodeValue(k, data); err == nil {
			if re := encodeValue(k, got); string(re) != string(data) {
				t.Fatalf("decoded %x to %v, which encodes to %x", data, got, re)
			}
		}
	})
}
