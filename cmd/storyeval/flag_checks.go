package main

import "fmt"

// flagError prefixes a flag value's error with the flag's name; nil stays
// nil. With cmp.Or, a command checks its flags in order, the first error
// winning.
func flagError(name string, err error) error {
	if err != nil {
		return fmt.Errorf("-%s: %w", name, err)
	}
	return nil
}

// errIf is the error of format and args when bad is true, else nil.
func errIf(bad bool, format string, args ...any) error {
	if bad {
		return fmt.Errorf(format, args...)
	}
	return nil
}

// quoteShort quotes a user-given value for a message, cut after 80
// characters.
func quoteShort(s string) string {
	if r := []rune(s); len(r) > 80 {
		return fmt.Sprintf("%q…", string(r[:80]))
	}
	return fmt.Sprintf("%q", s)
}
