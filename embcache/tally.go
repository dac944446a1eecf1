package embcache

import (
	"encoding/binary"
	"fmt"
)

// Kinds are counted in three slots: image, text, and any other first
// byte (a Key not made by ImageKey or TextKey).
const (
	slotImage = iota
	slotText
	slotOther
	numSlots
)

func slotOf(k Key) int {
	switch k.Kind() {
	case KindImage:
		return slotImage
	case KindText:
		return slotText
	}
	return slotOther
}

// tally counts a store's entries and the bytes of their keys and values,
// by kind. The file keeps it in the meta bucket, so that Stats reads three
// numbers rather than walking every page.
type tally [numSlots]struct{ entries, bytes uint64 }

const tallyBytes = numSlots * 16

func (t *tally) add(k Key, valueLen int, sign int) {
	s := &t[slotOf(k)]
	n := uint64(len(k) + valueLen)
	if sign < 0 {
		s.entries--
		s.bytes -= n
		return
	}
	s.entries++
	s.bytes += n
}

func (t *tally) total() (entries, bytes uint64) {
	for _, s := range t {
		entries += s.entries
		bytes += s.bytes
	}
	return entries, bytes
}

func (t *tally) encode() []byte {
	b := make([]byte, tallyBytes)
	for i, s := range t {
		binary.BigEndian.PutUint64(b[16*i:], s.entries)
		binary.BigEndian.PutUint64(b[16*i+8:], s.bytes)
	}
	return b
}

func decodeTally(b []byte) (tally, error) {
	var t tally
	if len(b) != tallyBytes {
		return t, fmt.Errorf("entry counts of %d bytes, want %d", len(b), tallyBytes)
	}
	for i := range t {
		t[i].entries = binary.BigEndian.Uint64(b[16*i:])
		t[i].bytes = binary.BigEndian.Uint64(b[16*i+8:])
	}
	return t, nil
}
