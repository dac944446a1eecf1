package rovist_test

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/storyeval/storyeval/rovist"
)

func ExampleNounsWriter() {
	w := rovist.NewNounsWriter(os.Stdout)
	for _, id := range []string{"s2", "s1"} {
		nouns, _ := rovist.Nouns("The dog ran to the park. I <3 my cat.")
		_ = w.Write(id, nouns)
	}
	_ = w.Close()
	// Output:
	// {
	//   "s2": [
	//     [
	//       "dog",
	//       "park"
	//     ],
	//     [
	//       "cat"
	//     ]
	//   ],
	//   "s1": [
	//     [
	//       "dog",
	//       "park"
	//     ],
	//     [
	//       "cat"
	//     ]
	//   ]
	// }
}

// TestNounsWriterMatchesIndentedJSON checks the streamed object against
// encoding/json's indented form of the same members (written in key order,
// so that the map's sorted keys agree), with keys and nouns that HTML
// escaping would change, and the empty object.
func TestNounsWriterMatchesIndentedJSON(t *testing.T) {
	members := map[string][][]string{
		"a<b": {{"<3", "dog"}, {}},
		"b":   {},
		"c&d": {{"x"}},
	}
	var got bytes.Buffer
	w := rovist.NewNounsWriter(&got)
	for _, id := range []string{"a<b", "b", "c&d"} {
		if err := w.Write(id, members[id]); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(members); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("got\n%s\nwant\n%s", got.String(), want.String())
	}
	got.Reset()
	if err := rovist.NewNounsWriter(&got).Close(); err != nil || got.String() != "{}\n" {
		t.Errorf("empty object %q, %v; want {}", got.String(), err)
	}
}
