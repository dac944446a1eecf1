package story

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// LoadSuite reads a suite from a JSON file laid out as ParseSuite
// describes; image paths are taken relative to the file's folder. The file
// is decoded as it is read, sequence by sequence, so memory is bounded by
// the suite itself, not the suite plus the raw file.
func LoadSuite(path string, opts ReadOptions) (*Suite, error) {
	if path == "" {
		return nil, errors.New("no input file given")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return decodeSuite(bufio.NewReaderSize(f, 1<<16), path, filepath.Dir(path), opts)
}

// ParseSuite decodes a suite from JSON:
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
func ParseSuite(data []byte, name string, opts ReadOptions) (*Suite, error) {
	if int64(len(data)) > opts.maxBytes() {
		return nil, opts.tooLarge(name)
	}
	return decodeSuite(bytes.NewReader(data), name, "", opts)
}

// suiteDecoder decodes a suite file from a stream: the top-level members
// in any order, "sequences" member by member.
type suiteDecoder struct {
	name, baseDir string
	systems       []string // "systems" as given, nil when absent
	images        map[string]string
	seen          []string // systems in first-appearance order
	known         map[string]bool
	seqs          []Sequence
	haveSeqs      bool
}

func decodeSuite(r io.Reader, name, baseDir string, opts ReadOptions) (*Suite, error) {
	lr := &io.LimitedReader{R: r, N: opts.maxBytes() + 1}
	d := &suiteDecoder{name: name, baseDir: baseDir, known: map[string]bool{}}
	err := d.decode(json.NewDecoder(lr))
	if lr.N <= 0 {
		return nil, opts.tooLarge(name)
	}
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			return nil, err
		}
		return nil, &ParseError{File: name, Err: err}
	}
	return d.suite()
}

// decode reads the top-level object.
func (d *suiteDecoder) decode(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err == io.EOF {
		return errors.New("empty input: want a JSON object with \"sequences\"")
	}
	if err != nil {
		return fmt.Errorf("not a story-suite object: %w", err)
	}
	if tok != json.Delim('{') {
		return fmt.Errorf("not a story-suite object: want a JSON object, got %v", tok)
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("not a story-suite object: %w", err)
		}
		switch key, _ := tok.(string); key {
		case "systems":
			err = dec.Decode(&d.systems)
			for _, s := range d.systems {
				d.known[s] = true
			}
		case "images":
			err = dec.Decode(&d.images)
		case "sequences":
			if d.haveSeqs {
				return errors.New(`"sequences" appears twice`)
			}
			d.haveSeqs = true
			err = d.decodeSequences(dec)
		default:
			return fmt.Errorf("not a story-suite object: json: unknown field %q", key)
		}
		if err != nil {
			var pe *ParseError
			if errors.As(err, &pe) {
				return err
			}
			return fmt.Errorf("not a story-suite object: %q: %w", tok, err)
		}
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("not a story-suite object: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("not a story-suite object: trailing data after the JSON object")
	}
	if !d.haveSeqs {
		return errors.New(`no "sequences" object`)
	}
	return nil
}

// decodeSequences reads the "sequences" object member by member.
func (d *suiteDecoder) decodeSequences(dec *json.Decoder) error {
	m := orderedjson.NewNestedMembers(dec)
	for {
		id, raw, err := m.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("sequences: %w", err)
		}
		seq, err := d.sequence(id, raw)
		if err != nil {
			return err
		}
		d.seqs = append(d.seqs, seq)
	}
}

// sequence decodes one member of "sequences".
func (d *suiteDecoder) sequence(id string, raw json.RawMessage) (Sequence, error) {
	fail := func(format string, a ...any) error {
		return &ParseError{File: d.name, ID: id, Err: fmt.Errorf(format, a...)}
	}
	var obj sequenceObject
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&obj); err != nil {
		return Sequence{}, fail("not a {\"images\", \"references\", \"stories\"} object: %v", err)
	}
	seq := Sequence{ID: id, References: obj.References, Stories: map[string]string{}}
	for i, im := range obj.Images {
		if im == "" {
			return Sequence{}, fail("image %d has an empty id", i)
		}
		seq.Images = append(seq.Images, Image{ID: im})
	}
	for i, ref := range obj.References {
		if strings.TrimSpace(ref) == "" {
			return Sequence{}, fail("reference %d is empty", i)
		}
	}
	if obj.Stories == nil {
		return Sequence{}, fail(`no "stories" object`)
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
		if !d.known[sys] {
			if len(d.systems) > 0 {
				return fail("story of system %q, which \"systems\" does not list", sys)
			}
			d.known[sys] = true
			d.seen = append(d.seen, sys)
		}
		seq.Stories[sys] = text
		return nil
	})
	if err != nil {
		var pe *ParseError
		if errors.As(err, &pe) {
			return Sequence{}, err
		}
		return Sequence{}, fail("stories: %v", err)
	}
	return seq, nil
}

// suite resolves image paths (the "images" map may come after
// "sequences") and assembles the suite.
func (d *suiteDecoder) suite() (*Suite, error) {
	if len(d.seqs) == 0 {
		return nil, &ParseError{File: d.name, Err: errors.New("no sequences")}
	}
	if d.images != nil {
		for _, seq := range d.seqs {
			for i := range seq.Images {
				p, ok := d.images[seq.Images[i].ID]
				if !ok {
					return nil, &ParseError{File: d.name, ID: seq.ID, Err: fmt.Errorf("unknown image %q (not in the \"images\" map)", seq.Images[i].ID)}
				}
				if d.baseDir != "" && p != "" && !filepath.IsAbs(p) {
					p = filepath.Join(d.baseDir, p)
				}
				seq.Images[i].Path = p
			}
		}
	}
	systems := d.systems
	if len(systems) == 0 {
		systems = d.seen
	}
	suite, err := NewSuite(systems, d.seqs)
	if err != nil {
		return nil, &ParseError{File: d.name, Err: err}
	}
	return suite, nil
}

// LoadSuiteDir reads a suite from a folder of per-system files: every
// NAME.json in dir holds {id: story} (the layout LoadJSON reads) and is
// system NAME; an optional references.json holds {id: [reference, ...]}.
// Systems are in file-name order; every system must have a story for the
// same ids, and the sequences take the order of the first system's file.
func LoadSuiteDir(dir string, opts ReadOptions) (*Suite, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
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
		set, err := LoadJSON(path, ReadOptions{Limits: opts.Limits, RejectBlank: true})
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
