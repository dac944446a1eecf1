package main

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// eachMember calls fn for every member of the JSON object in data, in the
// order the members appear in the file. Go maps forget that order, and
// several subcommands must print their rows in input order. Duplicate keys
// are an error, since a map-based reader would silently keep only one.
func eachMember(data []byte, fn func(key string, value json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("not a JSON object: %w", err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return fmt.Errorf("not a JSON object: starts with %v", tok)
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return fmt.Errorf("malformed JSON object: %w", err)
		}
		key, _ := tok.(string) // object keys are always strings
		if seen[key] {
			return fmt.Errorf("key %q appears twice", key)
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
	if dec.More() {
		return fmt.Errorf("trailing data after the JSON object")
	}
	return nil
}

// readStories reads a file holding a JSON object {id: story text} and
// returns the ids in file order with their texts.
func readStories(path string) (ids []string, texts map[string]string, err error) {
	data, err := readFile(path)
	if err != nil {
		return nil, nil, err
	}
	texts = map[string]string{}
	err = eachMember(data, func(key string, value json.RawMessage) error {
		var s string
		if err := json.Unmarshal(value, &s); err != nil {
			return fmt.Errorf("story %q is not a string: %w", key, err)
		}
		ids = append(ids, key)
		texts[key] = s
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return ids, texts, nil
}
