// Package npy reads NumPy .npy arrays (format versions 1–3), the format of
// the golden outputs that the reference implementations produced.
//
// Only little-endian, C-ordered numeric arrays are supported; that is what
// numpy.save writes on the machines the goldens came from. Object arrays
// (pickles) are refused, so reading a file never executes anything.
package npy

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/x448/float16"
)

// MaxElements bounds the number of elements an array may declare, so a
// corrupt header cannot make Read allocate gigabytes.
const MaxElements = 1 << 28

// Array is a decoded .npy array. Exactly one of F32, F64 or I64 is set;
// integer and float16 inputs are widened.
type Array struct {
	Shape []int
	// DType is the numpy type string from the header, e.g. "<f4".
	DType string
	F32   []float32
	F64   []float64
	I64   []int64
}

// Len is the number of elements (the product of Shape).
func (a *Array) Len() int {
	n := 1
	for _, d := range a.Shape {
		n *= d
	}
	return n
}

// Float64s returns the elements as float64, whatever their stored type.
func (a *Array) Float64s() []float64 {
	switch {
	case a.F64 != nil:
		return a.F64
	case a.F32 != nil:
		out := make([]float64, len(a.F32))
		for i, v := range a.F32 {
			out[i] = float64(v)
		}
		return out
	default:
		out := make([]float64, len(a.I64))
		for i, v := range a.I64 {
			out[i] = float64(v)
		}
		return out
	}
}

// ReadFile reads a .npy file; a name ending in .gz is gunzipped first.
func ReadFile(path string) (*Array, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer gz.Close()
		r = gz
	}
	a, err := Read(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return a, nil
}

var (
	descrRe   = regexp.MustCompile(`'descr':\s*'([^']*)'`)
	fortranRe = regexp.MustCompile(`'fortran_order':\s*(True|False)`)
	shapeRe   = regexp.MustCompile(`'shape':\s*\(([^)]*)\)`)
)

// Read decodes one .npy array from r.
func Read(r io.Reader) (*Array, error) {
	var magic [8]byte
	if _, err := io.ReadFull(r, magic[:]); err != nil {
		return nil, fmt.Errorf("reading magic: %w", err)
	}
	if !bytes.Equal(magic[:6], []byte("\x93NUMPY")) {
		return nil, errors.New("not a .npy file (bad magic)")
	}
	var hlen int
	switch magic[6] {
	case 1:
		var b [2]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, fmt.Errorf("reading header length: %w", err)
		}
		hlen = int(binary.LittleEndian.Uint16(b[:]))
	case 2, 3:
		var b [4]byte
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return nil, fmt.Errorf("reading header length: %w", err)
		}
		hlen = int(binary.LittleEndian.Uint32(b[:]))
	default:
		return nil, fmt.Errorf("unsupported format version %d", magic[6])
	}
	if hlen > 1<<20 {
		return nil, fmt.Errorf("header of %d bytes is implausibly long", hlen)
	}
	header := make([]byte, hlen)
	if _, err := io.ReadFull(r, header); err != nil {
		return nil, fmt.Errorf("reading header: %w", err)
	}
	h := string(header)
	m := descrRe.FindStringSubmatch(h)
	if m == nil {
		return nil, fmt.Errorf("header has no descr: %q", h)
	}
	a := &Array{DType: m[1]}
	if m := fortranRe.FindStringSubmatch(h); m == nil || m[1] != "False" {
		return nil, errors.New("only C-ordered arrays are supported (fortran_order must be False)")
	}
	m = shapeRe.FindStringSubmatch(h)
	if m == nil {
		return nil, fmt.Errorf("header has no shape: %q", h)
	}
	n := 1
	for _, f := range strings.Split(m[1], ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		d, err := strconv.Atoi(f)
		if err != nil || d < 0 {
			return nil, fmt.Errorf("bad dimension %q in shape", f)
		}
		if d > 0 && n > MaxElements/d {
			return nil, fmt.Errorf("shape (%s) exceeds %d elements", m[1], MaxElements)
		}
		n *= d
		a.Shape = append(a.Shape, d)
	}
	size, ok := map[string]int{"<f4": 4, "<f8": 8, "<f2": 2, "<i8": 8, "<i4": 4, "|u1": 1, "|i1": 1, "|b1": 1, "<u4": 4, "<i2": 2, "<u2": 2, "<u8": 8}[a.DType]
	if !ok {
		return nil, fmt.Errorf("unsupported dtype %q", a.DType)
	}
	raw := make([]byte, n*size)
	if _, err := io.ReadFull(r, raw); err != nil {
		return nil, fmt.Errorf("reading %d elements of %s: %w", n, a.DType, err)
	}
	le := binary.LittleEndian
	switch a.DType {
	case "<f4":
		a.F32 = make([]float32, n)
		for i := range a.F32 {
			a.F32[i] = math.Float32frombits(le.Uint32(raw[4*i:]))
		}
	case "<f2":
		a.F32 = make([]float32, n)
		for i := range a.F32 {
			a.F32[i] = float16.Frombits(le.Uint16(raw[2*i:])).Float32()
		}
	case "<f8":
		a.F64 = make([]float64, n)
		for i := range a.F64 {
			a.F64[i] = math.Float64frombits(le.Uint64(raw[8*i:]))
		}
	default:
		a.I64 = make([]int64, n)
		for i := range a.I64 {
			switch a.DType {
			case "<i8", "<u8":
				a.I64[i] = int64(le.Uint64(raw[8*i:]))
			case "<i4":
				a.I64[i] = int64(int32(le.Uint32(raw[4*i:])))
			case "<u4":
				a.I64[i] = int64(le.Uint32(raw[4*i:]))
			case "<i2":
				a.I64[i] = int64(int16(le.Uint16(raw[2*i:])))
			case "<u2":
				a.I64[i] = int64(le.Uint16(raw[2*i:]))
			case "|i1":
				a.I64[i] = int64(int8(raw[i]))
			default: // |u1, |b1
				a.I64[i] = int64(raw[i])
			}
		}
	}
	return a, nil
}
