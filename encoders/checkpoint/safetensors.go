package checkpoint

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// safetensors layout: an 8-byte little-endian header length N, N bytes of
// JSON {name: {"dtype", "shape", "data_offsets": [begin, end]}, "__metadata__":
// {str: str}}, then the data; offsets are relative to the end of the header.

type safetensorsEntry struct {
	DType       string  `json:"dtype"`
	Shape       []int64 `json:"shape"`
	DataOffsets []int64 `json:"data_offsets"`
}

func (o Options) parseSafetensors(data []byte) (*State, error) {
	if len(data) < 8 {
		return nil, errors.New("file shorter than its 8-byte header length")
	}
	n := binary.LittleEndian.Uint64(data)
	if n > uint64(o.MaxHeaderBytes) {
		return nil, fmt.Errorf("header of %d bytes exceeds the limit of %d", n, o.MaxHeaderBytes)
	}
	if n > uint64(len(data)-8) {
		return nil, fmt.Errorf("header of %d bytes is longer than the file (%d bytes)", n, len(data))
	}
	header := data[8 : 8+n]
	body := data[8+n:]
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(header))
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("header JSON: %w", err)
	}
	st := newState(FormatSafetensors)
	for name, msg := range raw {
		if name == "__metadata__" {
			if err := json.Unmarshal(msg, &st.meta); err != nil {
				return nil, fmt.Errorf("__metadata__ is not a string map: %w", err)
			}
			continue
		}
		var h safetensorsEntry
		if err := json.Unmarshal(msg, &h); err != nil {
			return nil, fmt.Errorf("tensor %q: %w", name, err)
		}
		e, err := safetensorsTensor(name, h, body)
		if err != nil {
			return nil, err
		}
		st.tensors[name] = e
	}
	return st, nil
}

// safetensorsTensor validates one header entry against the data section.
func safetensorsTensor(name string, h safetensorsEntry, body []byte) (*entry, error) {
	dt, ok := parseSafetensorsDType(h.DType)
	if !ok {
		return nil, fmt.Errorf("tensor %q has unsupported dtype %q", name, h.DType)
	}
	if len(h.DataOffsets) != 2 {
		return nil, fmt.Errorf("tensor %q: data_offsets has %d values, want 2", name, len(h.DataOffsets))
	}
	if len(h.Shape) > maxDims {
		return nil, fmt.Errorf("tensor %q has %d dimensions (at most %d)", name, len(h.Shape), maxDims)
	}
	shape := make([]int, len(h.Shape))
	numel := int64(1)
	for i, d := range h.Shape {
		if d < 0 || (d > 0 && numel > math.MaxInt64/8/d) {
			return nil, fmt.Errorf("tensor %q has invalid shape %v", name, h.Shape)
		}
		numel *= d
		shape[i] = int(d)
	}
	begin, end := h.DataOffsets[0], h.DataOffsets[1]
	if begin < 0 || end < begin || end > int64(len(body)) {
		return nil, fmt.Errorf("tensor %q: data_offsets [%d, %d] outside the %d data bytes", name, begin, end, len(body))
	}
	if want := numel * int64(dt.Size()); end-begin != want {
		return nil, fmt.Errorf("tensor %q: %s%v needs %d bytes, data_offsets give %d", name, dt, h.Shape, want, end-begin)
	}
	return &entry{dtype: dt, shape: shape, data: body[begin:end]}, nil
}
