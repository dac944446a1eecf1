package orderedjson

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEachMemberKeepsFileOrder(t *testing.T) {
	var keys []string
	err := EachMember([]byte(`{"b": 1, "a": [2], "c": {"x": 3}}`), func(k string, _ json.RawMessage) error {
		keys = append(keys, k)
		return nil
	})
	if err != nil || strings.Join(keys, ",") != "b,a,c" {
		t.Fatalf("keys %q, err %v", keys, err)
	}
}

func TestEachMemberErrors(t *testing.T) {
	for in, want := range map[string]string{
		``:                 "empty input",
		`null`:             "got null",
		`[1]`:              "got an array",
		`"s"`:              "got a string",
		`3`:                "got a number",
		`{"a": 1, "a": 2}`: `id "a" appears twice`,
		`{"a": 1`:          "malformed JSON object",
		`{"a": 1} {}`:      "trailing data",
		`{"a": }`:          `value of "a"`,
	} {
		err := EachMember([]byte(in), func(string, json.RawMessage) error { return nil })
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("EachMember(%q) = %v, want %q", in, err, want)
		}
	}
}
