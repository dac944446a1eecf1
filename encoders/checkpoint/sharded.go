package checkpoint

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// OpenDir opens the weights of a HuggingFace model directory, choosing as
// transformers does: model.safetensors; else a sharded checkpoint's index
// (model.safetensors.index.json, then pytorch_model.bin.index.json, then the
// only *.index.json); else pytorch_model.bin. Matches the reference
// implementation (transformers 4.29 from_pretrained), which prefers
// safetensors when both formats are present.
func (o Options) OpenDir(dir string) (*State, error) {
	single := filepath.Join(dir, "model.safetensors")
	if fileExists(single) {
		return o.Open(single)
	}
	if idx, err := findIndex(dir); err != nil {
		return nil, err
	} else if idx != "" {
		return o.OpenSharded(idx)
	}
	bin := filepath.Join(dir, "pytorch_model.bin")
	if fileExists(bin) {
		return o.Open(bin)
	}
	return nil, fmt.Errorf("%s holds no model.safetensors, *.index.json or pytorch_model.bin", dir)
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func findIndex(dir string) (string, error) {
	for _, n := range []string{"model.safetensors.index.json", "pytorch_model.bin.index.json"} {
		if p := filepath.Join(dir, n); fileExists(p) {
			return p, nil
		}
	}
	matches, err := filepath.Glob(filepath.Join(dir, "*.index.json"))
	if err != nil {
		return "", err
	}
	switch len(matches) {
	case 0:
		return "", nil
	case 1:
		return matches[0], nil
	}
	return "", fmt.Errorf("%s holds several shard indexes %v; open one with OpenSharded", dir, matches)
}

// maxIndexBytes bounds a shard index file.
const maxIndexBytes = 64 << 20

// OpenSharded opens the checkpoint an index file describes
// ({"metadata": …, "weight_map": {tensor name: shard file}}), each shard in
// any format Open reads. Every name of the weight map must be in its shard;
// shard file names must be plain names in the index's directory.
func (o Options) OpenSharded(indexPath string) (*State, error) {
	o = o.withDefaults()
	f, err := os.Open(indexPath)
	if err != nil {
		return nil, err
	}
	b, err := io.ReadAll(io.LimitReader(f, maxIndexBytes+1))
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", indexPath, err)
	}
	if len(b) > maxIndexBytes {
		return nil, fmt.Errorf("%s is larger than %d bytes", indexPath, maxIndexBytes)
	}
	var idx struct {
		WeightMap map[string]string `json:"weight_map"`
	}
	if err := json.Unmarshal(b, &idx); err != nil {
		return nil, fmt.Errorf("%s: %w", indexPath, err)
	}
	if len(idx.WeightMap) == 0 {
		return nil, fmt.Errorf("%s has no weight_map", indexPath)
	}
	byShard := make(map[string][]string)
	for name, shard := range idx.WeightMap {
		if shard == "" || shard != filepath.Base(shard) || strings.ContainsAny(shard, `/\`) || shard == "." || shard == ".." {
			return nil, fmt.Errorf("%s: shard %q of %q is not a plain file name", indexPath, shard, name)
		}
		byShard[shard] = append(byShard[shard], name)
	}
	shards := make([]string, 0, len(byShard))
	for s := range byShard {
		shards = append(shards, s)
	}
	sort.Strings(shards)
	st := newState(FormatSharded)
	st.opts, st.owner = o, true
	fail := func(err error) (*State, error) {
		return nil, errors.Join(err, st.files.close(nil))
	}
	dir := filepath.Dir(indexPath)
	for _, shard := range shards {
		part, err := o.Open(filepath.Join(dir, shard))
		if err != nil {
			return fail(err)
		}
		st.files.closers = append(st.files.closers, part.Close)
		for _, name := range byShard[shard] {
			if !part.Has(name) {
				return fail(fmt.Errorf("%s maps %q to %s, which lacks it", indexPath, name, shard))
			}
		}
		for name, e := range part.tensors {
			if _, dup := st.tensors[name]; dup {
				return fail(fmt.Errorf("tensor %q is in two shards of %s", name, indexPath))
			}
			st.tensors[name] = e
		}
		for name, v := range part.values {
			st.values[name] = v
		}
		if part.meta != nil && st.meta == nil {
			st.meta = part.meta
		}
	}
	return st, nil
}
