package apmodel

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"reflect"
	"sort"
	"strings"
	"testing"
)

func sampleModel() *Model {
	return &Model{
		Classes: []string{"DT", "NN", "VB"},
		TagDict: map[string]uint8{"the": 0, "The": 0, "dog": 1},
		Features: []Feature{
			{Key: "bias", Classes: []uint8{0, 1, 2}, Milli: []int32{-1, 34390, -18876}},
			{Key: "i suffix ing", Classes: []uint8{2}, Milli: []int32{1250}},
			{Key: "i suffix ion", Classes: []uint8{1}, Milli: []int32{-127}},
			{Key: "i word dog", Classes: []uint8{1, 2}, Milli: []int32{2000, -3}},
			{Key: "i+2 word the", Classes: []uint8{0}, Milli: []int32{7}},
			{Key: "i-1 tag+i word DT dog", Classes: []uint8{1}, Milli: []int32{900}},
			{Key: "i-1 tag+i word -START- the", Classes: []uint8{0}, Milli: []int32{-900}},
			{Key: "i-1 tag+i word NN", Classes: []uint8{2}, Milli: []int32{1}}, // no word: stored whole
			{Key: "i-1 word a b", Classes: []uint8{2}, Milli: []int32{-1}},     // a space in the word
			{Key: "i-1 tag+i word  x", Classes: []uint8{2}, Milli: []int32{4}}, // an empty tag
		},
	}
}

func TestEncodeDecodeRoundTrip(t *testing.T) {
	m := sampleModel()
	var buf bytes.Buffer
	if err := Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	byKey := func(fs []Feature) func(i, j int) bool {
		return func(i, j int) bool { return fs[i].Key < fs[j].Key }
	}
	sort.Slice(got.Features, byKey(got.Features))
	sort.Slice(m.Features, byKey(m.Features))
	if !reflect.DeepEqual(got, m) {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, m)
	}
}

func TestDecodeRejectsCorruptInput(t *testing.T) {
	var buf bytes.Buffer
	if err := Encode(&buf, sampleModel()); err != nil {
		t.Fatal(err)
	}
	good := buf.Bytes()
	for name, data := range map[string][]byte{
		"empty":     nil,
		"not gzip":  []byte("NLTKAP\x01"),
		"truncated": good[:len(good)/2],
	} {
		if _, err := Decode(data); err == nil {
			t.Errorf("%s: Decode succeeded on corrupt input", name)
		}
	}
}

func TestEncodeRejectsBadModels(t *testing.T) {
	m := sampleModel()
	m.Features[1].Classes = []uint8{7}
	if err := Encode(&bytes.Buffer{}, m); err == nil {
		t.Error("Encode accepted a class index beyond the classes")
	}
	m = sampleModel()
	m.Classes = []string{"VB", "NN", "DT"}
	if err := Encode(&bytes.Buffer{}, m); err == nil {
		t.Error("Encode accepted unsorted classes")
	}
	m = sampleModel()
	m.Features = append(m.Features, m.Features[0])
	if err := Encode(&bytes.Buffer{}, m); err == nil {
		t.Error("Encode accepted a duplicate feature")
	}
}

func TestZigzag(t *testing.T) {
	for _, v := range []int32{0, 1, -1, 255, -256, 34390, -18876} {
		if got := unzigzag(zigzag(v)); got != v {
			t.Errorf("unzigzag(zigzag(%d)) = %d", v, got)
		}
	}
}

// TestDecodeBoundsStringMemory: front coding lets each 3-byte entry extend
// the previous string by one byte, so 20,000 entries (60 KB) would spell 200
// MB of strings; Decode must stop at its limit instead.
func TestDecodeBoundsStringMemory(t *testing.T) {
	payload := []byte(magic)
	payload = binary.AppendUvarint(payload, 0) // classes
	payload = binary.AppendUvarint(payload, 0) // tag dictionary
	const n = 20000
	payload = binary.AppendUvarint(payload, n) // vocabulary
	for i := range n {
		payload = binary.AppendUvarint(payload, uint64(i)) // share all of the previous word
		payload = append(binary.AppendUvarint(payload, 1), 'a')
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(payload)
	zw.Close()
	_, err := Decode(z.Bytes())
	if err == nil || !strings.Contains(err.Error(), "strings total more than") {
		t.Fatalf("Decode = %v, want the string-size limit error", err)
	}
}
