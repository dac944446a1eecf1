package main

import (
	"errors"
	"fmt"
	"slices"
)

// flagError prefixes a flag value's error with the flag's name; nil stays
// nil. With cmp.Or, a command checks its flags in order, the first error
// winning.
func flagError(name string, err error) error {
	if err != nil {
		return fmt.Errorf("-%s: %w", name, err)
	}
	return nil
}

// oneOf is nil when v is one of want, else "-flag "v": want a or b".
func oneOf(flag, v string, want ...string) error {
	return errIf(!slices.Contains(want, v), "-%s %q: want %s", flag, v, joinWords(want, "or"))
}

// flagOf prefixes err with prefix, which names the flag, when err is an E:
// a library error about the input the flag gave. Other errors pass as they are.
func flagOf[E error](err error, prefix string) error {
	if errors.As(err, new(E)) {
		return fmt.Errorf("%s%w", prefix, err)
	}
	return err
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
