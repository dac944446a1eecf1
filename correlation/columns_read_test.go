package correlation

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestReadColumns(t *testing.T) {
	for _, c := range []struct {
		name, in string
		cols     []string
		want     [][]float64
	}{
		{"BOM and spaces", "\ufeffhuman, metric\n1, 0.5\n2,0.25 \n", []string{"human", "metric"}, [][]float64{{1, 2}, {0.5, 0.25}}},
		{"reordered, other columns", "id,metric,human\na,1e-1,3\nb,-2,4\n", []string{"human", "metric"}, [][]float64{{3, 4}, {0.1, -2}}},
		{"same column twice", "x\n1\n2\n", []string{"x", "x"}, [][]float64{{1, 2}, {1, 2}}},
		{"header only", "x,y\n", []string{"x", "y"}, [][]float64{nil, nil}},
	} {
		got, err := ReadColumns(strings.NewReader(c.in), c.cols...)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
		}
	}
}

func TestReadColumnsErrors(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", "empty CSV: no header row"},
		{"a,b\n1,2\n", `no column "c" in the header (columns: "a", "b")`},
		{"a,b,c\n1,2,x\n", `row 2, column "c": "x" is not a finite number`},
		{"a,c\n1,\n", `row 2, column "c": "" is not a finite number`},
		{"a,c\n1,2\n1,Inf\n", `row 3, column "c": "Inf" is not a finite number`},
		{"a,c,c\n1,2,3\n", `column "c" appears twice in the header`},
		{"a,c\n1,2\n3\n", "wrong number of fields"},
	} {
		_, err := ReadColumns(strings.NewReader(c.in), "a", "c")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ReadColumns(%q): error %v, want one containing %q", c.in, err, c.want)
		}
	}
}

// FuzzReadColumns: arbitrary CSV must give columns of equal length or an
// error, never a panic, and columns it accepts must summarize.
func FuzzReadColumns(f *testing.F) {
	f.Add([]byte("a,b\n1,2\n3,4\n"))
	f.Add([]byte("a,b\n\"1\",2e3\n-0,0x1p-2\n"))
	f.Add([]byte("b,a\n1,inf\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cols, err := ReadColumns(bytes.NewReader(data), "a", "b")
		if err != nil {
			return
		}
		if len(cols) != 2 || len(cols[0]) != len(cols[1]) {
			t.Fatalf("columns of unequal length: %v", cols)
		}
		if _, err := Summarize(cols[0], cols[1]); err != nil && len(cols[0]) >= 2 {
			t.Fatalf("valid columns rejected: %v", err)
		}
	})
}
