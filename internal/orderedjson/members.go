// Package orderedjson reads JSON objects member by member in file order,
// which Go maps forget: the story readers and the command's {id: …} inputs
// must keep the order of the file and reject repeated ids.
package orderedjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// EachMember calls fn for every member of the JSON object in data, in file
// order. A repeated key is an error (a map-based reader would silently keep
// only one), and so are an empty input, a value that is not an object,
// malformed JSON and trailing data; messages say which.
func EachMember(data []byte, fn func(key string, value json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err == io.EOF {
		return errors.New("empty input: want a JSON object")
	}
	if err != nil {
		return fmt.Errorf("not a JSON object: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("want a JSON object, got %s", describeToken(tok))
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("malformed JSON object: %w", err)
		}
		key, _ := tok.(string) // object keys are always strings
		if seen[key] {
			return fmt.Errorf("id %q appears twice", key)
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return fmt.Errorf("value of %q: %w", key, err)
		}
		if err := fn(key, raw); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return fmt.Errorf("malformed JSON object: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("trailing data after the JSON object")
	}
	return nil
}

// describeToken names the first JSON token of a non-object input.
func describeToken(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case json.Delim:
		if v == '[' {
			return "an array"
		}
		return fmt.Sprintf("%q", string(v))
	case string:
		return "a string"
	case bool:
		return "a boolean"
	}
	return "a number"
}
