package checkpoint

import (
	"fmt"
	"io"
	"strings"

	"github.com/storyeval/storyeval/internal/dense"
	"github.com/storyeval/storyeval/internal/safetensors"
)

// ConvertOptions configures WriteSafetensors and ConvertFile. The zero
// value keeps tensor names as stored and writes no metadata.
type ConvertOptions struct {
	// StripPrefix is removed from every tensor name when all of them have
	// it, such as "model." for a torch.save dict {"model": state_dict, …}
	// (the released RoViST checkpoints), so that the file holds the
	// state_dict the encoders read either way; "" keeps names as stored.
	StripPrefix string
	// Metadata is written as the safetensors header's "__metadata__" map.
	Metadata map[string]string
}

// WriteSafetensors writes the tensors of s to w in the safetensors format,
// which loads by memory mapping instead of unpickling, and returns how many
// it wrote. Floating-point tensors are written as float32 (what the
// encoders compute in; F64 rounds as Float32), integer and bool buffers as
// int64; non-tensor entries of a torch.save dict (epoch, losses, argparse
// options) are left out; a 0-dimensional tensor keeps its empty shape. A
// state without tensors is an error. Every tensor
// is read into memory before the file is written.
func (s *State) WriteSafetensors(w io.Writer, opts ConvertOptions) (int, error) {
	tensors, err := s.safetensors(opts)
	if err != nil {
		return 0, err
	}
	return len(tensors), safetensors.Write(w, tensors, opts.Metadata)
}

// ConvertFile rewrites the checkpoint at in (any format Open reads) as a
// safetensors file at out, as WriteSafetensors, and returns the number of
// tensors written. out is written atomically: into a temporary file in the
// same folder, synced, then renamed, so that a reader never sees half a
// file. Errors name in.
func ConvertFile(in, out string, opts ConvertOptions) (int, error) {
	st, err := Open(in)
	if err != nil {
		return 0, err
	}
	defer st.Close()
	tensors, err := st.safetensors(opts)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", in, err)
	}
	return len(tensors), safetensors.WriteFile(out, tensors, opts.Metadata)
}

// safetensors reads every tensor of s for writing, names stripped as opts
// says.
func (s *State) safetensors(opts ConvertOptions) ([]safetensors.Tensor, error) {
	names := s.Names()
	if len(names) == 0 {
		return nil, fmt.Errorf("checkpoint holds no tensors")
	}
	prefix := opts.StripPrefix
	for _, n := range names {
		if !strings.HasPrefix(n, prefix) {
			prefix = ""
			break
		}
	}
	tensors := make([]safetensors.Tensor, 0, len(names))
	for _, n := range names {
		info, _ := s.Info(n)
		t := safetensors.Tensor{Name: strings.TrimPrefix(n, prefix), Shape: info.Shape}
		if info.DType.IsFloat() {
			d, err := s.Float32(n)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", n, err)
			}
			switch v := dense.Data(d).(type) {
			case []float32:
				t.F32 = v
			case float32: // a 0-dimensional tensor (shape []) holds one element
				t.F32 = []float32{v}
			}
		} else {
			d, err := s.Int64(n)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", n, err)
			}
			switch v := dense.Data(d).(type) {
			case []int64:
				t.I64 = v
			case int64:
				t.I64 = []int64{v}
			}
		}
		tensors = append(tensors, t)
	}
	return tensors, nil
}
