package regions

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/internal/errtext"
	"github.com/storyeval/storyeval/limits"
)

// defaultMaxBytes bounds a regions file when Options.Limits leaves
// MaxBytes zero (VIST's vist_entities.csv is about 60 MB).
const defaultMaxBytes = 1 << 30

// IDs says how a regions file's image ids are compared.
type IDs int

const (
	// StringIDs reads ids as GROOViST's pandas.read_csv does: when every
	// image_id of the file is an integer the column is int64, so "007"
	// and "7" name the same image; otherwise ids are strings compared
	// exactly.
	StringIDs IDs = iota
	// IntegerIDs reads ids as RoViST does (compute_sim selects rows with
	// df["image_id"] == int(image_id)): every image_id must be an
	// integer, compared by value.
	IntegerIDs
)

// Options configures Load and Read. The zero value reads as GROOViST does.
type Options struct {
	// IDs is how image ids are compared (zero: StringIDs).
	IDs IDs
	// Limits bounds the file (MaxBytes 0: 1 GiB); a larger one fails with
	// a *limits.TooLargeError.
	Limits limits.Limits
}

// Region is one row of a regions file: an object region of an image.
type Region struct {
	// ImageID is the row's image_id, in canonical decimal form
	// (CanonicalImageID) when ids are integers.
	ImageID string
	// BBox is the bbox field exactly as written; crop files are named
	// "{image_id}_{bbox}.jpg" with it (CropPath).
	BBox string
	// Box is BBox read as "[left, top, right, bottom]" in pixels; HasBox
	// reports whether BBox has that form (needed only to crop regions out
	// of whole images).
	Box    [4]float64
	HasBox bool
	// Object is the detector's label, when the file has that column.
	Object string
}

// Entities are the regions of a regions file, grouped by image in file
// order. It is immutable and safe for concurrent use.
type Entities struct {
	byImage map[string][]Region
	rows    int
	ints    bool // every id is an integer (keys are canonical)
	// name, and the first id that is not an integer with its line, word
	// View's error for IntegerIDs.
	name         string
	nonInteger   string
	nonIntegerAt int
}

// Load reads the regions file at path (see Read).
func Load(path string, o Options) (*Entities, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, o)
}

// Read reads a regions CSV from r; name labels errors (usually the path).
//
// The file has a header row naming at least the columns image_id and bbox
// (image_name, object and score are optional, other columns ignored),
// comma-separated with double-quoted fields, as both references read it
// with pandas.read_csv. The rows of an image keep their file order even
// when interleaved with other images' rows: it decides which regions come
// first. A row with more fields than the header is an error, as in pandas;
// one with fewer must still hold image_id and bbox. bbox is kept as the
// exact text of the field, since it names the crop file, so an empty bbox
// or one holding a path separator or NUL is an error.
func Read(r io.Reader, name string, o Options) (*Entities, error) {
	lr := limits.NewReader(r, name, o.Limits.Bytes(defaultMaxBytes))
	cr := csv.NewReader(lr)
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("regions %s: empty file", name)
		}
		return nil, readError(name, err)
	}
	col := map[string]int{}
	for i, h := range header {
		h = strings.TrimPrefix(h, "\uFEFF")
		if _, dup := col[h]; !dup {
			col[h] = i
		}
	}
	idCol, ok1 := col["image_id"]
	boxCol, ok2 := col["bbox"]
	if !ok1 || !ok2 {
		return nil, fmt.Errorf("regions %s: the header (%s) lacks the image_id or bbox column", name, errtext.QuoteList(header))
	}
	objCol, hasObj := col["object"]
	var rows []Region
	ints := true
	firstID, firstLine := "", 0 // the first id that is not an integer
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, readError(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) > len(header) {
			return nil, fmt.Errorf("regions %s line %d: %d fields, the header has %d", name, line, len(rec), len(header))
		}
		if idCol >= len(rec) || boxCol >= len(rec) {
			return nil, fmt.Errorf("regions %s line %d: missing image_id or bbox", name, line)
		}
		reg := Region{ImageID: rec[idCol], BBox: rec[boxCol]}
		if reg.BBox == "" {
			return nil, fmt.Errorf("regions %s line %d: empty bbox", name, line)
		}
		if strings.ContainsAny(reg.BBox, "/\\\x00") {
			return nil, fmt.Errorf("regions %s line %d: bbox %s cannot name a crop file", name, line, errtext.Quote(reg.BBox))
		}
		if hasObj && objCol < len(rec) {
			reg.Object = rec[objCol]
		}
		reg.Box, reg.HasBox = ParseBBox(reg.BBox)
		if _, ok := parseID(reg.ImageID); !ok && ints {
			if o.IDs == IntegerIDs {
				return nil, integerIDError(name, line, reg.ImageID)
			}
			ints, firstID, firstLine = false, reg.ImageID, line
		}
		rows = append(rows, reg)
	}
	e := &Entities{byImage: map[string][]Region{}, rows: len(rows), ints: ints, name: name, nonInteger: firstID, nonIntegerAt: firstLine}
	for _, reg := range rows {
		if ints {
			reg.ImageID = CanonicalImageID(reg.ImageID)
		}
		e.byImage[reg.ImageID] = append(e.byImage[reg.ImageID], reg)
	}
	return e, nil
}

// integerIDError says that RoViST's integer ids cannot read the id at
// line of the regions file name.
func integerIDError(name string, line int, id string) error {
	return fmt.Errorf("regions %s line %d: image id %s is not an integer", name, line, errtext.Quote(id))
}

// readError words an error of encoding/csv or of the size limit.
func readError(name string, err error) error {
	var tl *limits.TooLargeError
	if errors.As(err, &tl) {
		return tl
	}
	return fmt.Errorf("regions %s: %w", name, err)
}

// parseID reads an image id as Python's int(str) does for decimal digits
// with an optional sign and surrounding white space.
func parseID(s string) (int64, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	return n, err == nil
}

// CanonicalImageID returns an integer id in Python's str(int(id)) form and
// any other id unchanged. Crop files are named with this form: VIST image
// ids are integers in both references, and their crops are named with
// str(iid).
func CanonicalImageID(id string) string {
	if n, ok := parseID(id); ok {
		return strconv.FormatInt(n, 10)
	}
	return id
}

// ParseBBox reads a bbox field of the form "[left, top, right, bottom]"
// (numbers as Python writes them; white space around each is allowed).
func ParseBBox(s string) ([4]float64, bool) {
	var box [4]float64
	inner, ok := strings.CutPrefix(strings.TrimSpace(s), "[")
	if !ok {
		return box, false
	}
	inner, ok = strings.CutSuffix(inner, "]")
	if !ok {
		return box, false
	}
	parts := strings.Split(inner, ",")
	if len(parts) != 4 {
		return box, false
	}
	for i, p := range parts {
		v, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return box, false
		}
		box[i] = v
	}
	return box, true
}

// Len returns the number of regions read.
func (e *Entities) Len() int { return e.rows }

// Regions returns the regions of an image in file order (a copy; nil when
// the file lists none). An id is looked up as written and, when that finds
// none, in canonical form (CanonicalImageID), so "007" finds the regions
// of 7 when ids are integers: the story files of both references hold
// image ids as strings that the references turn into integers.
func (e *Entities) Regions(imageID string) []Region {
	regs, ok := e.byImage[imageID]
	if !ok {
		regs = e.byImage[CanonicalImageID(imageID)]
	}
	return slices.Clone(regs)
}

// ImageIDs returns the image ids of the file, in increasing numeric order
// when every id is an integer and in string order otherwise.
func (e *Entities) ImageIDs() []string {
	ids := make([]string, 0, len(e.byImage))
	for id := range e.byImage {
		ids = append(ids, id)
	}
	if !e.ints {
		slices.Sort(ids)
		return ids
	}
	slices.SortFunc(ids, func(a, b string) int {
		x, _ := parseID(a)
		y, _ := parseID(b)
		return cmp.Compare(x, y)
	})
	return ids
}

// CropPath is where both references read a region's crop:
// dir/{image_id}_{bbox}.jpg, with the bbox text exactly as in the regions
// file and the image id as given (pass Region.ImageID).
func CropPath(dir, imageID, bbox string) string {
	return filepath.Join(dir, imageID+"_"+bbox+".jpg")
}
