package npy

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteFloat32 writes data as a little-endian, C-ordered float32 .npy
// array (format 1.0) of the given shape, as numpy.save writes one: the
// header dict padded with spaces and a newline so that the data starts at
// a multiple of 64 bytes.
func WriteFloat32(w io.Writer, shape []int, data []float32) error {
	n := 1
	dims := make([]string, len(shape))
	for i, d := range shape {
		dims[i] = strconv.Itoa(d)
		n *= d
	}
	if n != len(data) {
		return fmt.Errorf("shape %v holds %d elements, data %d", shape, n, len(data))
	}
	// numpy writes a 1-D shape as (n,).
	tuple := strings.Join(dims, ", ")
	if len(shape) == 1 {
		tuple += ","
	}
	header := fmt.Sprintf("{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }", tuple)
	pad := 64 - (10+len(header)+1)%64
	header += strings.Repeat(" ", pad%64) + "\n"
	bw := bufio.NewWriter(w)
	bw.WriteString("\x93NUMPY\x01\x00")
	binary.Write(bw, binary.LittleEndian, uint16(len(header)))
	bw.WriteString(header)
	if err := binary.Write(bw, binary.LittleEndian, data); err != nil {
		return err
	}
	return bw.Flush()
}
