package story

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/storyeval/storyeval/internal/orderedjson"
)

type sequenceObject struct {
	Images     []string        `json:"images"`
	References []string        `json:"references"`
	Stories    json.RawMessage `json:"stories"`
}

// ReadSuite reads a suite from a JSON file laid out as DecodeSuite
// describes; image paths are taken relative to the file's folder.
func ReadSuite(path string, opts ReadOptions) (*Suite, error) {
	data, err := readFile(path, opts)
	if err != nil {
		return nil, err
	}
	return decodeSuite(data, path, filepath.Dir(path), opts)
}

// DecodeSuite decodes a suite from JSON:
//
//	{
//	  "systems": ["glacnet", "aren"],
//	  "images": {"2997155124": "images/2997155124.jpg", "3067537198": "images/3067537198.jpg"},
//	  "sequences": {
//	    "45686": {
//	      "images": ["2997155124", "3067537198"],
//	      "references": ["the kids had a blast on their first day ."],
//	      "stories": {"glacnet": "the kids played .", "aren": "a day at daycare ."}
//	    }
//	  }
//	}
//
// "systems" is optional and fixes the systems' order (else the order in
// which they first appear); "images" is optional and maps image ids to
// files (relative paths are kept as written); when it is given, every image
// a sequence names must be in it. "references" is optional. Every problem —
// an unknown image, a missing or blank story (blank stories are rejected:
// a system that wrote nothing is an input error here), a duplicate id, an
// unknown member — is an error naming the file, the sequence and what is
// wrong. name labels errors (usually the file path).
func DecodeSuite(data []byte, name string, opts ReadOptions) (*Suite, error) {
	return decodeSuite(data, name, "", opts)
}

func decodeSuite(data []byte, name, baseDir string, opts ReadOptions) (*Suite, error) {
	if int64(len(data)) > opts.maxBytes() {
		return nil, &ParseError{File: name, Err: fmt.Errorf("larger than the %d-byte limit", opts.maxBytes())}
	}
	var top struct {
		Systems   []string          `json:"systems"`
		Images    map[string]string `json:"images"`
		Sequences json.RawMessage   `json:"sequences"`
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &ParseError{File: name, Err: errors.New("empty input: want a JSON object with \"sequences\"")}
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&top); err != nil {
		return nil, &ParseError{File: name, Err: fmt.Errorf("not a story-suite object: %w", err)}
	}
	if top.Sequences == nil {
		return nil, &ParseError{File: name, Err: errors.New(`no "sequences" object`)}
	}
	systems := top.Systems
	known := map[string]bool{}
	for _, s := range systems {
		known[s] = true
	}
	fixed := len(systems) > 0
	var seqs []Sequence
	err := orderedjson.EachMember(top.Sequences, func(id string, raw json.RawMessage) error {
		fail := func(format string, a ...any) error {
			return &ParseError{File: name, ID: id, Err: fmt.Errorf(format, a...)}
		}
		var obj sequenceObject
		d := json.NewDecoder(bytes.NewReader(raw))
		d.DisallowUnknownFields()
		if err := d.Decode(&obj); err != nil {
			return fail("not a {\"images\", \"references\", \"stories\"} object: %v", err)
		}
		seq := Sequence{ID: id, References: obj.References, Stories: map[string]string{}}
		for i, im := range obj.Images {
			if im == "" {
				return fail("image %d has an empty id", i)
			}
			img := Image{ID: im}
			if top.Images != nil {
				p, ok := top.Images[im]
				if !ok {
					return fail("unknown image %q (not in the \"images\" map)", im)
				}
				if baseDir != "" && p != "" && !filepath.IsAbs(p) {
					p = filepath.Join(baseDir, p)
				}
				img.Path = p
			}
			seq.Images = append(seq.Images, img)
		}
		for i, ref := range obj.References {
			if strings.TrimSpace(ref) == "" {
				return fail("reference %d is empty", i)
			}
		}
		if obj.Stories == nil {
			return fail(`no "stories" object`)
		}
		err := orderedjson.EachMember(obj.Stories, func(sys string, sraw json.RawMessage) error {
			var text string
			if err := json.Unmarshal(sraw, &text); err != nil {
				return fail("story of system %q is not a string", sys)
			}
			if strings.TrimSpace(text) == "" {
				return fail("story of system %q is empty", sys)
			}
			if sys == "" {
				return fail("story with an empty system name")
			}
			if !known[sys] {
				if fixed {
					return fail("story of system %q, which \"systems\" does not list", sys)
				}
				known[sys] = true
				systems = append(systems, sys)
			}
			seq.Stories[sys] = text
			return nil
		})
		if err != nil {
			var pe *ParseError
			if errors.As(err, &pe) {
				return err
			}
			return fail("stories: %v", err)
		}
		seqs = append(seqs, seq)
		return nil
	})
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			return nil, err
		}
		return nil, &ParseError{File: name, Err: fmt.Errorf("sequences: %w", err)}
	}
	if len(seqs) == 0 {
		return nil, &ParseError{File: name, Err: errors.New("no sequences")}
	}
	suite, err := NewSuite(systems, seqs)
	if err != nil {
		return nil, &ParseError{File: name, Err: err}
	}
	return suite, nil
}

// ReadSuiteDir reads a suite from a folder of per-system files: every
// NAME.json in dir holds {id: story} (the layout ReadJSON reads) and is
// system NAME; an optional references.json holds {id: [reference, ...]}.
// Systems are in file-name order; every system must have a story for the
// same ids, and the sequences take the order of the first system's file.
func ReadSuiteDir(dir string, opts ReadOptions) (*Suite, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("story: %w", err)
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") || e.Name() == "references.json" {
			continue
		}
		names = append(names, e.Name())
	}
	sort.Strings(names)
	if len(names) == 0 {
		return nil, &ParseError{File: dir, Err: errors.New("no system files (NAME.json) in the folder")}
	}
	var systems []string
	var first *Set
	stories := map[string]map[string]string{}
	for _, n := range names {
		sys := strings.TrimSuffix(n, ".json")
		path := filepath.Join(dir, n)
		set, err := ReadJSON(path, ReadOptions{MaxBytes: opts.MaxBytes, RejectBlank: true})
		if err != nil {
			return nil, err
		}
		if first == nil {
			first = set
		} else if set.Len() != first.Len() {
			return nil, &ParseError{File: path, Err: fmt.Errorf("%d stories, but %s has %d", set.Len(), names[0], first.Len())}
		}
		for _, st := range set.All() {
			if _, ok := first.Get(st.ID); !ok {
				return nil, &ParseError{File: path, ID: st.ID, Err: fmt.Errorf("not in %s", names[0])}
			}
			if stories[st.ID] == nil {
				stories[st.ID] = map[string]string{}
			}
			stories[st.ID][sys] = st.Text
		}
		systems = append(systems, sys)
	}
	refs := map[string][]string{}
	refPath := filepath.Join(dir, "references.json")
	if _, err := os.Stat(refPath); err == nil {
		data, err := readFile(refPath, opts)
		if err != nil {
			return nil, err
		}
		err = orderedjson.EachMember(data, func(id string, raw json.RawMessage) error {
			var r []string
			if err := json.Unmarshal(raw, &r); err != nil {
				return &ParseError{File: refPath, ID: id, Err: errors.New("references are not a list of strings")}
			}
			if _, ok := first.Get(id); !ok {
				return &ParseError{File: refPath, ID: id, Err: errors.New("no system wrote a story with this id")}
			}
			refs[id] = r
			return nil
		})
		if err != nil {
			var pe *ParseError
			if errors.As(err, &pe) {
				return nil, err
			}
			return nil, &ParseError{File: refPath, Err: err}
		}
	}
	var seqs []Sequence
	for _, st := range first.All() {
		seqs = append(seqs, Sequence{ID: st.ID, Images: st.Images, References: refs[st.ID], Stories: stories[st.ID]})
	}
	suite, err := NewSuite(systems, seqs)
	if err != nil {
		return nil, &ParseError{File: dir, Err: err}
	}
	return suite, nil
}
