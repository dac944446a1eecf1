package correlation

import (
	"bufio"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/storyeval/storyeval/internal/errtext"
)

// ReadColumns reads a CSV with a header row from r and returns the values
// of the named columns (a name may repeat), one slice per name, in row
// order. Header names are compared with surrounding spaces removed, and a
// UTF-8 byte-order mark before the header is skipped (spreadsheet exports
// start with one). Every value must be a finite number: a missing judgement
// is an error naming its row and column, not a silently dropped pair, since
// dropping it would pair the remaining values wrongly.
func ReadColumns(r io.Reader, names ...string) ([][]float64, error) {
	br := bufio.NewReader(r)
	if bom, err := br.Peek(3); err == nil && string(bom) == "\ufeff" {
		br.Discard(3)
	}
	cr := csv.NewReader(br)
	cr.ReuseRecord = true
	header, err := cr.Read()
	if errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("empty CSV: no header row")
	}
	if err != nil {
		return nil, err
	}
	idx := make([]int, len(names))
	for k, name := range names {
		idx[k] = -1
		for i, h := range header {
			if strings.TrimSpace(h) != name {
				continue
			}
			if idx[k] >= 0 {
				return nil, fmt.Errorf("column %q appears twice in the header", name)
			}
			idx[k] = i
		}
		if idx[k] < 0 {
			return nil, fmt.Errorf("no column %q in the header (columns: %s)", name, errtext.QuoteList(header))
		}
	}
	cols := make([][]float64, len(names))
	for row := 2; ; row++ { // row 1 is the header
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		for k, i := range idx {
			field := strings.TrimSpace(rec[i])
			v, err := strconv.ParseFloat(field, 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("row %d, column %q: %s is not a finite number", row, names[k], errtext.Quote(field))
			}
			cols[k] = append(cols[k], v)
		}
	}
	return cols, nil
}
