package groovist

import (
	"encoding/json"
	"fmt"

	"github.com/storyeval/storyeval/internal/orderedjson"
	"github.com/storyeval/storyeval/limits"
)

// LoadCaptions pairs the images ids (at paths, as ImageFiles lists them)
// with their candidate captions from candsPath ({image id: caption}) and,
// when refsPath is not empty, their references ({image id: [references]}
// or {image id: reference}), as clipscore.py's inputs. Every image needs a
// candidate, and with references at least one reference; captions of
// images not listed are ignored. lim bounds each file (default 1 GiB).
func LoadCaptions(candsPath, refsPath string, ids, paths []string, lim limits.Limits) ([]Caption, error) {
	data, err := loadBounded(candsPath, lim)
	if err != nil {
		return nil, err
	}
	cands, err := ParseCaptions(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", candsPath, err)
	}
	var refs map[string][]string
	if refsPath != "" {
		if data, err = loadBounded(refsPath, lim); err != nil {
			return nil, err
		}
		if refs, err = ParseReferences(data); err != nil {
			return nil, fmt.Errorf("%s: %w", refsPath, err)
		}
	}
	items := make([]Caption, len(ids))
	for i, id := range ids {
		c, ok := cands[id]
		if !ok {
			return nil, fmt.Errorf("%s: no candidate for image %q (%s)", candsPath, id, paths[i])
		}
		items[i] = Caption{ID: id, Image: paths[i], Candidate: c}
		if refs != nil {
			r, ok := refs[id]
			if !ok || len(r) == 0 {
				return nil, fmt.Errorf("%s: no reference for image %q", refsPath, id)
			}
			items[i].References = r
		}
	}
	return items, nil
}

// ParseCaptions reads a JSON object {image id: caption}.
func ParseCaptions(data []byte) (map[string]string, error) {
	out := map[string]string{}
	err := orderedjson.EachMember(data, func(key string, value json.RawMessage) error {
		var s string
		if err := json.Unmarshal(value, &s); err != nil {
			return fmt.Errorf("caption of %q is not a string", key)
		}
		out[key] = s
		return nil
	})
	return out, err
}

// ParseReferences reads a JSON object {image id: [references]}, where a
// single string stands for a list of one.
func ParseReferences(data []byte) (map[string][]string, error) {
	out := map[string][]string{}
	err := orderedjson.EachMember(data, func(key string, value json.RawMessage) error {
		var list []string
		if err := json.Unmarshal(value, &list); err == nil && list != nil {
			out[key] = list
			return nil
		}
		var s string
		if err := json.Unmarshal(value, &s); err != nil {
			return fmt.Errorf("references of %q are neither a string nor a list of strings", key)
		}
		out[key] = []string{s}
		return nil
	})
	return out, err
}
