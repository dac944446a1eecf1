package cuda

import (
	"fmt"
	"unsafe"
)

// The scratch buffers of a queue.
const (
	scratchHeads  = iota // attention: Q, K, V and the context split by head
	scratchScores        // attention: the scores of every (sequence, head)
	scratchInts          // uploaded ids and masks
	numScratch
)

// scratchBuffer returns the queue's scratch buffer i with at least n
// values, growing it (by at least half, to amortise) when needed.
func (q *Queue) scratchBuffer(i, n int) (Buffer, error) {
	if q.scratch[i].N >= n {
		return Buffer{Ptr: q.scratch[i].Ptr, N: n}, nil
	}
	grown := max(n, q.scratch[i].N+q.scratch[i].N/2)
	// cuMemFree waits for the work still using the old buffer.
	if err := q.Free(q.scratch[i]); err != nil {
		return Buffer{}, err
	}
	q.scratch[i] = Buffer{}
	b, err := q.Alloc(grown)
	if err != nil {
		return Buffer{}, err
	}
	q.scratch[i] = b
	return Buffer{Ptr: b.Ptr, N: n}, nil
}

// uploadBytes copies raw bytes into the ints scratch buffer (after off
// bytes, a multiple of 4) on the queue and returns a buffer at them; the
// host slice may be reused when it returns (the copy is staged).
func (q *Queue) uploadBytes(data []byte, off int) (Buffer, error) {
	if off%4 != 0 {
		return Buffer{}, fmt.Errorf("cuda: uploadBytes: offset %d is not a multiple of 4", off)
	}
	words := (off + len(data) + 3) / 4
	b, err := q.scratchBuffer(scratchInts, words)
	if err != nil || len(data) == 0 {
		return b.At(off / 4), err
	}
	at := b.At(off / 4)
	err = q.locked(func() error {
		return q.d.drv.CopyHtoD(at.Ptr, unsafe.Pointer(&data[0]), uint64(len(data)), q.stream)
	})
	return at, err
}

// int32Bytes returns ints as the bytes of C ints (little-endian int32),
// checking that each fits.
func int32Bytes(ints []int) ([]byte, error) {
	out := make([]byte, 4*len(ints))
	for i, v := range ints {
		if v < -1<<31 || v > 1<<31-1 {
			return nil, fmt.Errorf("cuda: index %d (%d) does not fit a 32-bit int", i, v)
		}
		u := uint32(int32(v))
		out[4*i], out[4*i+1], out[4*i+2], out[4*i+3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
	}
	return out, nil
}

// boolBytes returns a mask as bytes, 1 for true.
func boolBytes(mask []bool) []byte {
	out := make([]byte, len(mask))
	for i, v := range mask {
		if v {
			out[i] = 1
		}
	}
	return out
}
