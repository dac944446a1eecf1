package tokenize

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/storyeval/storyeval/encoders/internal/fixturedir"
)

// The model input goldens must follow the tokenizer options their index
// records. These tests derive other fixture sets from the default one, as
// HF would have written them with other options, and run
// TestModelInputGoldens on them. The derived arrays come from the golden
// arrays alone (HF's padding and truncation rules applied to HF's own
// rows), never from this package's tokenizers.

// textGroup is one text group of a model's golden index and its arrays.
type textGroup struct {
	prefix string // "" or "single_", "pair_" …
	pair   bool
	ids    [][]int
	mask   [][]int
	types  [][]int // nil when the index has no token_type_ids
	// truncates is whether the recorded options truncate (at max_length,
	// or the model's maximum): the rows may have been cut there.
	truncates bool
}

// truncates reports whether recorded HF options truncate.
func (o encodeOptions) truncates() bool {
	var v any
	if o.Truncation == nil || json.Unmarshal(o.Truncation, &v) != nil {
		return false
	}
	switch v := v.(type) {
	case bool:
		return v
	case string:
		return v != "do_not_truncate" && v != "false"
	}
	return false
}

// forEachTextGroup calls fn for every text group of every model index of
// the fixture set at root; fn returns the new rows (or nil to leave the
// group alone) and the index-level or group-level options to record.
func forEachTextGroup(t *testing.T, root string, fn func(index string, g *textGroup) (changed bool, opts map[string]any)) int {
	t.Helper()
	indexes, _ := filepath.Glob(filepath.Join(root, "*", "golden", "index.json"))
	changedGroups := 0
	for _, path := range indexes {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var idx modelIndex
		var top encodeOptions
		if err := json.Unmarshal(data, &idx); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &top); err != nil {
			t.Fatal(err)
		}
		dir := filepath.Dir(path)
		groupOpts := map[string]map[string]any{}
		for key, raw := range idx.InputsFrom {
			var in textInputs
			prefix := key
			if key == "texts" {
				prefix = ""
				if json.Unmarshal(raw, &in.Texts) != nil {
					continue
				}
			} else if json.Unmarshal(raw, &in) != nil || (in.Texts == nil && in.Text == nil) {
				continue
			}
			g := &textGroup{prefix: prefix, pair: in.Text != nil, truncates: top.over(in.encodeOptions).truncates()}
			read := func(name string) [][]int {
				if a, ok := idx.Arrays[prefix+name]; ok {
					return readIntArray(t, filepath.Join(dir, a.File))
				}
				return nil
			}
			g.ids, g.mask, g.types = read("input_ids"), read("attention_mask"), read("token_type_ids")
			if g.ids == nil || g.mask == nil {
				continue
			}
			changed, opts := fn(path, g)
			if !changed {
				continue
			}
			changedGroups++
			groupOpts[key] = opts
			for name, rows := range map[string][][]int{"input_ids": g.ids, "attention_mask": g.mask, "token_type_ids": g.types} {
				if rows != nil {
					writeIntArray(t, filepath.Join(dir, idx.Arrays[prefix+name].File), rows)
				}
			}
		}
		if len(groupOpts) == 0 {
			continue
		}
		fixturedir.EditJSON(t, path, func(m map[string]any) {
			inputs := m["inputs_from"].(map[string]any)
			for key, opts := range groupOpts {
				if grp, ok := inputs[key].(map[string]any); ok {
					for k, v := range opts {
						grp[k] = v
					}
					continue
				}
				// A bare list of texts: the options live at the index's top
				// level, as CLIP's text_padding does.
				for k, v := range opts {
					if k == "padding" {
						k = "text_padding"
					}
					m[k] = v
				}
			}
		})
	}
	return changedGroups
}

// padID is the id the rows use at masked positions.
func (g *textGroup) padID() (int, bool) {
	for r, row := range g.mask {
		for i, m := range row {
			if m == 0 {
				return g.ids[r][i], true
			}
		}
	}
	return 0, false
}

// realLen is the number of unmasked (leading) tokens of row r.
func (g *textGroup) realLen(r int) int {
	n := 0
	for _, m := range g.mask[r] {
		n += m
	}
	return n
}

// repad pads every row (its first n[r] tokens) to width with pad.
func (g *textGroup) repad(rows [][]int, n []int, width, pad int) [][]int {
	out := make([][]int, len(rows))
	for r, row := range rows {
		out[r] = make([]int, width)
		copy(out[r], row[:n[r]])
		for i := n[r]; i < width; i++ {
			out[r][i] = pad
		}
	}
	return out
}

func TestModelInputGoldensMaxLengthPadding(t *testing.T) {
	maxLengthVariant(t)
	TestModelInputGoldens(t)
}

// TestModelInputGoldensMaxLengthPaddingOfTruncatedSet derives the
// max-length set from a truncated one, as a full-size fixture profile is
// (CLIP texts cut at 77 tokens): the padding must not move the truncation.
func TestModelInputGoldensMaxLengthPaddingOfTruncatedSet(t *testing.T) {
	truncatedVariant(t)
	maxLengthVariant(t)
	TestModelInputGoldens(t)
}

// maxLengthVariant derives a set recorded with padding="max_length" from
// the current one.
func maxLengthVariant(t *testing.T) {
	fixturedir.Variant(t, func(root string) {
		n := forEachTextGroup(t, root, func(index string, g *textGroup) (bool, map[string]any) {
			pad, ok := g.padID()
			if !ok {
				return false, nil
			}
			// HF pads and truncates at the same max_length: when the
			// options truncate, a width beyond the rows' own would make HF
			// keep tokens the rows were cut before (a 77-token CLIP row
			// padded to 80 is HF's 80-token row), so pad to the widest row.
			width := len(g.ids[0]) + 3
			if g.truncates {
				width = len(g.ids[0])
			}
			lens := make([]int, len(g.ids))
			ones := make([][]int, len(g.ids))
			for r := range g.ids {
				lens[r] = g.realLen(r)
				ones[r] = make([]int, lens[r])
				for i := range ones[r] {
					ones[r][i] = 1
				}
			}
			g.ids = g.repad(g.ids, lens, width, pad)
			g.mask = g.repad(ones, lens, width, 0)
			if g.types != nil {
				g.types = g.repad(g.types, lens, width, 0)
			}
			return true, map[string]any{"padding": "max_length", "max_length": width}
		})
		if n == 0 {
			t.Fatal("no padded text group to derive a max-length set from")
		}
	})
}

func TestModelInputGoldensTruncation(t *testing.T) {
	truncatedVariant(t)
	TestModelInputGoldens(t)
}

// truncatedVariant derives a set recorded with truncation="longest_first"
// and a max_length two tokens below the longest row from the current one.
func truncatedVariant(t *testing.T) {
	fixturedir.Variant(t, func(root string) {
		n := forEachTextGroup(t, root, func(index string, g *textGroup) (bool, map[string]any) {
			pad, ok := g.padID()
			if !ok || (g.pair && g.types == nil) {
				return false, nil
			}
			longest := 0
			for r := range g.ids {
				longest = max(longest, g.realLen(r))
			}
			limit := longest - 2
			if limit < 5 {
				return false, nil
			}
			rows, types, lens := make([][]int, len(g.ids)), make([][]int, len(g.ids)), make([]int, len(g.ids))
			for r := range g.ids {
				rows[r], types[r] = truncateRow(g, r, limit)
				lens[r] = len(rows[r])
			}
			width := 0
			for _, l := range lens {
				width = max(width, l)
			}
			ones := make([][]int, len(rows))
			for r := range ones {
				ones[r] = make([]int, lens[r])
				for i := range ones[r] {
					ones[r][i] = 1
				}
			}
			g.ids, g.mask = g.repad(rows, lens, width, pad), g.repad(ones, lens, width, 0)
			if g.types != nil {
				g.types = g.repad(types, lens, width, 0)
			}
			return true, map[string]any{"truncation": "longest_first", "max_length": limit}
		})
		if n == 0 {
			t.Fatal("no text group long enough to derive a truncated set from")
		}
	})
}

// truncateRow applies HF's longest_first truncation to max length limit to
// row r of a golden group: a single sequence keeps its first limit−1
// tokens and its closing token; a pair [CLS] A [SEP] B [SEP] (split where
// the token types change) loses tokens from the end of the longer side,
// the second on ties.
func truncateRow(g *textGroup, r, limit int) (ids, types []int) {
	n := g.realLen(r)
	row := g.ids[r][:n]
	var typ []int
	if g.types != nil {
		typ = g.types[r][:n]
	}
	if n <= limit {
		return row, typ
	}
	if !g.pair {
		ids = append(append([]int(nil), row[:limit-1]...), row[n-1])
		if typ != nil {
			types = append(append([]int(nil), typ[:limit-1]...), typ[n-1])
		}
		return ids, types
	}
	firstEnd := 0 // tokens of [CLS] A [SEP]
	for firstEnd < n && typ[firstEnd] == typ[0] {
		firstEnd++
	}
	a, b := firstEnd-2, n-firstEnd-1
	for remove := n - limit; remove > 0; remove-- {
		if a > b {
			a--
		} else {
			b--
		}
	}
	ids = append(ids, row[:1+a]...)
	ids = append(ids, row[firstEnd-1])
	ids = append(ids, row[firstEnd:firstEnd+b]...)
	ids = append(ids, row[n-1])
	for i := range ids {
		if i < a+2 { // [CLS] A [SEP]
			types = append(types, typ[0])
		} else {
			types = append(types, typ[n-1])
		}
	}
	return ids, types
}

// writeIntArray writes rows as a 2-D little-endian int64 .npy file (format
// version 1.0) at path, replacing a .npy.gz link of the Variant if any.
func writeIntArray(t *testing.T, path string, rows [][]int) {
	t.Helper()
	path = strings.TrimSuffix(path, ".gz")
	header := fmt.Sprintf("{'descr': '<i8', 'fortran_order': False, 'shape': (%d, %d), }", len(rows), len(rows[0]))
	total := 10 + len(header) + 1
	header += strings.Repeat(" ", (64-total%64)%64) + "\n"
	var buf bytes.Buffer
	buf.WriteString("\x93NUMPY\x01\x00")
	binary.Write(&buf, binary.LittleEndian, uint16(len(header)))
	buf.WriteString(header)
	for _, row := range rows {
		for _, v := range row {
			binary.Write(&buf, binary.LittleEndian, int64(v))
		}
	}
	os.Remove(path + ".gz")
	fixturedir.Write(t, path, buf.Bytes())
}
