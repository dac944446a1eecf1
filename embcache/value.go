package embcache

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
)

// A value is laid out as
//
//	byte 0        value format version (FormatVersion)
//	bytes 1..4    n, the number of floats, uint32 little-endian
//	4n bytes      the float32 bit patterns, little-endian
//	4 bytes       CRC-32C over the key, then all bytes above
//
// The float32 bits are stored as is (NaN payloads and negative zero
// included), so a vector reads back bit-identical. The checksum covers the
// key too, so a value that a damaged page shows under another key fails.

const valueOverhead = 1 + 4 + 4

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// errCorrupt marks a value that fails its checks.
var errCorrupt = errors.New("corrupt value")

// encodeValue returns the stored form of v under k.
func encodeValue(k Key, v []float32) []byte {
	b := make([]byte, valueOverhead+4*len(v))
	b[0] = FormatVersion
	binary.LittleEndian.PutUint32(b[1:5], uint32(len(v)))
	for i, f := range v {
		binary.LittleEndian.PutUint32(b[5+4*i:], math.Float32bits(f))
	}
	binary.LittleEndian.PutUint32(b[len(b)-4:], valueCRC(k, b[:len(b)-4]))
	return b
}

// decodeValue returns the vector stored in b under k, or an error wrapping
// errCorrupt when b is not a value this version wrote under k.
func decodeValue(k Key, b []byte) ([]float32, error) {
	if len(b) < valueOverhead {
		return nil, fmt.Errorf("%w: %d bytes, want at least %d", errCorrupt, len(b), valueOverhead)
	}
	if b[0] != FormatVersion {
		return nil, fmt.Errorf("%w: format version %d, want %d", errCorrupt, b[0], FormatVersion)
	}
	n := binary.LittleEndian.Uint32(b[1:5])
	if uint64(len(b)) != valueOverhead+4*uint64(n) {
		return nil, fmt.Errorf("%w: %d bytes for %d floats", errCorrupt, len(b), n)
	}
	if got, want := binary.LittleEndian.Uint32(b[len(b)-4:]), valueCRC(k, b[:len(b)-4]); got != want {
		return nil, fmt.Errorf("%w: checksum %08x, want %08x", errCorrupt, got, want)
	}
	v := make([]float32, n)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[5+4*i:]))
	}
	return v, nil
}

func valueCRC(k Key, body []byte) uint32 {
	return crc32.Update(crc32.Checksum(k[:], crcTable), crcTable, body)
}
