package checkpoint

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Protocol 0 writes strings as text lines; these decode them.

// unquotePythonString decodes the argument of STRING: a Python 2 str repr in
// single or double quotes with backslash escapes. Bytes come back as a Go
// string unchanged (Python 3 would decode them as ASCII).
func unquotePythonString(s string) (string, error) {
	if len(s) < 2 || (s[0] != '\'' && s[0] != '"') || s[len(s)-1] != s[0] {
		return "", fmt.Errorf("STRING argument %q is not quoted", truncateForError(s))
	}
	s = s[1 : len(s)-1]
	if !strings.Contains(s, `\`) {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'f':
			b.WriteByte(12)
		case 'v':
			b.WriteByte(11)
		case 'x':
			if i+3 > len(s) {
				return "", fmt.Errorf("STRING: truncated \\x escape")
			}
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", fmt.Errorf("STRING: bad \\x escape %q", s[i+1:i+3])
			}
			b.WriteByte(byte(v))
			i += 2
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(v))
			i = j - 1
		default: // \\, \', \" and unknown escapes keep the character
			if e != '\\' && e != '\'' && e != '"' {
				b.WriteByte('\\')
			}
			b.WriteByte(e)
		}
	}
	return b.String(), nil
}

// decodeRawUnicodeEscape decodes UNICODE's raw-unicode-escape text: \uXXXX
// and \UXXXXXXXX escapes, every other byte a Latin-1 code point.
func decodeRawUnicodeEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (s[i+1] == 'u' || s[i+1] == 'U') {
			n := 4
			if s[i+1] == 'U' {
				n = 8
			}
			if i+2+n <= len(s) {
				if v, err := strconv.ParseUint(s[i+2:i+2+n], 16, 32); err == nil && v <= utf8.MaxRune {
					b.WriteRune(rune(v))
					i += 1 + n
					continue
				}
			}
		}
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

func truncateForError(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}
