package apmodel

import (
	"bytes"
	"reflect"
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
}

func TestZigzag(t *testing.T) {
	for _, v := range []int32{0, 1, -1, 255, -256, 34390, -18876} {
		if got := unzigzag(zigzag(v)); got != v {
			t.Errorf("unzigzag(zigzag(%d)) = %d", v, got)
		}
	}
}
