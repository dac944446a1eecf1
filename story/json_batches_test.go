package story

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// batchIDs runs EachBatch on in and returns each batch's ids.
func batchIDs(t *testing.T, in string, opts BatchOptions, fn func([]Story) error) ([][]string, error) {
	t.Helper()
	var got [][]string
	err := NewJSONReader(strings.NewReader(in), "b.json", ReadOptions{}).EachBatch(opts, func(b []Story) error {
		ids := make([]string, len(b))
		for i, st := range b {
			ids[i] = st.ID
		}
		got = append(got, ids)
		if fn != nil {
			return fn(b)
		}
		return nil
	})
	return got, err
}

func TestEachBatchBounds(t *testing.T) {
	// Five stories of 4, 4, 8, 1 and 3 bytes of text.
	in := `{"a": "aaaa", "b": "bbbb", "c": "cccccccc", "d": "d", "e": "eee"}`
	for _, c := range []struct {
		opts BatchOptions
		want [][]string
	}{
		{BatchOptions{}, [][]string{{"a", "b", "c", "d", "e"}}},
		{BatchOptions{MaxStories: 2}, [][]string{{"a", "b"}, {"c", "d"}, {"e"}}},
		// A batch ends once it holds 8 bytes: after b (8), after c (8).
		{BatchOptions{MaxTextBytes: 8}, [][]string{{"a", "b"}, {"c"}, {"d", "e"}}},
		{BatchOptions{MaxStories: 1, MaxTextBytes: 1}, [][]string{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}}},
	} {
		got, err := batchIDs(t, in, c.opts, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%+v: batches %v, want %v", c.opts, got, c.want)
		}
	}
	if got, err := batchIDs(t, `{}`, BatchOptions{}, nil); err != nil || got != nil {
		t.Errorf("empty object: batches %v, error %v", got, err)
	}
}

// TestEachBatchErrors: a read error comes after the batches before it; an
// error from fn stops reading and is returned as it is.
func TestEachBatchErrors(t *testing.T) {
	got, err := batchIDs(t, `{"a": "x", "b": "y", "c": 7}`, BatchOptions{MaxStories: 1}, nil)
	var pe *ParseError
	if !errors.As(err, &pe) || pe.ID != "c" {
		t.Errorf("error %v, want a ParseError naming story c", err)
	}
	if want := [][]string{{"a"}, {"b"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("batches before the error %v, want %v", got, want)
	}
	stop := errors.New("stop")
	var in strings.Builder
	in.WriteString("{")
	for i := range 100 {
		fmt.Fprintf(&in, "%q: \"s\",", fmt.Sprint(i))
	}
	in.WriteString(`"last": "s"}`)
	got, err = batchIDs(t, in.String(), BatchOptions{MaxStories: 10}, func([]Story) error { return stop })
	if err != stop || len(got) != 1 {
		t.Errorf("fn's error: %v after %d batches, want stop after 1", err, len(got))
	}
}
