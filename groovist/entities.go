package groovist

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/encoders/imageproc"
	"github.com/storyeval/storyeval/internal/errtext"
)

// MaxEntitiesBytes bounds an entities CSV file.
const MaxEntitiesBytes = 1 << 30

// RegionsPerImage is how many regions of an image GROOViST uses (B = 10 in
// utils.get_max_alignment_scores).
const RegionsPerImage = 10

// EntityRegion is one row of an entities file: an object region of an
// image.
type EntityRegion struct {
	// ImageID is the row's image_id (canonical decimal form when the whole
	// column is integers, as pandas reads it).
	ImageID string
	// BBox is the bbox field exactly as written; crop files are named
	// "{image_id}_{bbox}.jpg" with it.
	BBox string
	// Box is BBox parsed as "[left, top, right, bottom]"; Parsed reports
	// whether that worked (only needed to crop from whole images).
	Box    imageproc.Box
	Parsed bool
	// Object is the detector's label, when the file has that column.
	Object string
}

// Entities are the object regions of an entities CSV (vist_entities.csv,
// aesop_entities.csv, vwp_entities.csv), grouped by image in file order.
// It is immutable and safe for concurrent use.
type Entities struct {
	byImage map[string][]EntityRegion
	rows    int
}

// LoadEntities reads an entities CSV file (see ReadEntities).
func LoadEntities(path string) (*Entities, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("groovist: entities: %w", err)
	}
	defer f.Close()
	e, err := ReadEntities(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return e, nil
}

// ReadEntities parses an entities CSV as GROOViST's pandas.read_csv does:
// a header row naming at least the columns image_id and bbox (image_name,
// object and score are optional), comma-separated with double-quoted
// fields. Rows keep their file order within each image, which decides the
// first RegionsPerImage regions. When every image_id is an integer the
// ids are compared as integers (pandas reads such a column as int64), so
// "007" and "7" name the same image. A row with more fields than the header
// is an error, as in pandas; input over MaxEntitiesBytes is refused.
func ReadEntities(r io.Reader) (*Entities, error) {
	lr := &io.LimitedReader{R: r, N: MaxEntitiesBytes + 1}
	cr := csv.NewReader(lr)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	header, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("entities: empty file")
		}
		return nil, fmt.Errorf("entities: header: %w", err)
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
		return nil, fmt.Errorf("entities: the header (%s) lacks the image_id and bbox columns", errtext.QuoteList(header))
	}
	objCol, hasObj := col["object"]
	var rows []EntityRegion
	allInts := true
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("entities: %w", err)
		}
		if lr.N <= 0 {
			return nil, fmt.Errorf("entities: more than %d bytes", MaxEntitiesBytes)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) > len(header) {
			return nil, fmt.Errorf("entities line %d: %d fields, the header has %d", line, len(rec), len(header))
		}
		if idCol >= len(rec) || boxCol >= len(rec) {
			return nil, fmt.Errorf("entities line %d: missing image_id or bbox", line)
		}
		reg := EntityRegion{ImageID: rec[idCol], BBox: rec[boxCol]}
		if hasObj && objCol < len(rec) {
			reg.Object = rec[objCol]
		}
		reg.Box, reg.Parsed = parseBBox(reg.BBox)
		if _, err := strconv.ParseInt(strings.TrimSpace(reg.ImageID), 10, 64); err != nil {
			allInts = false
		}
		rows = append(rows, reg)
	}
	if lr.N <= 0 {
		return nil, fmt.Errorf("entities: more than %d bytes", MaxEntitiesBytes)
	}
	e := &Entities{byImage: map[string][]EntityRegion{}, rows: len(rows)}
	for _, reg := range rows {
		if allInts {
			reg.ImageID = CanonicalImageID(reg.ImageID)
		}
		e.byImage[reg.ImageID] = append(e.byImage[reg.ImageID], reg)
	}
	return e, nil
}

// CanonicalImageID returns an integer id in Python's str(int(id)) form and
// any other id unchanged. VIST image ids are integers in GROOViST (int(x)
// of vist_sid_2_iids.json), and crop files are named with str(iid).
func CanonicalImageID(id string) string {
	if n, err := strconv.ParseInt(strings.TrimSpace(id), 10, 64); err == nil {
		return strconv.FormatInt(n, 10)
	}
	return id
}

// parseBBox reads "[left, top, right, bottom]".
func parseBBox(s string) (imageproc.Box, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return imageproc.Box{}, false
	}
	parts := strings.Split(s[1:len(s)-1], ",")
	if len(parts) != 4 {
		return imageproc.Box{}, false
	}
	var v [4]float64
	for i, p := range parts {
		x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil {
			return imageproc.Box{}, false
		}
		v[i] = x
	}
	return imageproc.Box{Left: v[0], Top: v[1], Right: v[2], Bottom: v[3]}, true
}

// Len returns the number of rows.
func (e *Entities) Len() int { return e.rows }

// Regions returns the rows of an image in file order (a copy).
func (e *Entities) Regions(imageID string) []EntityRegion {
	return append([]EntityRegion(nil), e.byImage[imageID]...)
}

// CropPath is where GROOViST reads a region crop: dir/{image_id}_{bbox}.jpg
// with the bbox string exactly as in the CSV.
func CropPath(dir, imageID, bbox string) string {
	return filepath.Join(dir, imageID+"_"+bbox+".jpg")
}
