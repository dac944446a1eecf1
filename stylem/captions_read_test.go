package stylem

import (
	"io"
	"reflect"
	"strings"
	"testing"
)

func readCaptions(in string) ([]Caption, []int, error) {
	r := NewCaptionReader(strings.NewReader(in))
	var out []Caption
	var lines []int
	for {
		c, err := r.Next()
		if err == io.EOF {
			return out, lines, nil
		}
		if err != nil {
			if _, again := r.Next(); again != err {
				panic("Next after an error returned another result")
			}
			return out, lines, err
		}
		out = append(out, c)
		lines = append(lines, r.Line())
	}
}

func TestCaptionReader(t *testing.T) {
	in := "{\"id\": \"t1\", \"caption\": \"what a happy dog\", \"refs\": [\"i love this dog\"]}\n\n  \n{\"id\": \"t2\", \"caption\": \"\"}\n"
	got, lines, err := readCaptions(in)
	if err != nil {
		t.Fatal(err)
	}
	want := []Caption{{"t1", "what a happy dog", []string{"i love this dog"}}, {"t2", "", nil}}
	if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(lines, []int{1, 4}) {
		t.Errorf("captions %+v on lines %v, want %+v on lines [1 4]", got, lines, want)
	}
	for _, c := range []struct{ in, want string }{
		{"{\"id\": \"a\"}\n", `line 1: needs "id" and "caption"`},
		{"\n{\"id\": \"a\", \"caption\": \"x\"}\n{\"id\": \"a\", \"caption\": \"y\"}\n", `line 3: id "a" appears twice`},
		{"{\"id\": 1, \"caption\": \"x\"}\n", "line 1: json: cannot unmarshal number"},
		{"{\"id\": \"a\", \"caption\": \"x\"}\n" + strings.Repeat("x", maxCaptionLineBytes+1), "line 2 is longer than 16 MiB"},
	} {
		_, _, err := readCaptions(c.in)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("error %v, want one containing %q", err, c.want)
		}
	}
}
