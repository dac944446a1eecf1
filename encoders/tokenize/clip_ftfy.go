package tokenize

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// fixText is the subset of ftfy 6's fix_text (default configuration) that
// CLIP's text cleaning depends on, applied line by line until nothing
// changes, as ftfy does:
//
//   - unescape_html: "&name;" and "&#n;" entities, unless the text holds a
//     '<' (ftfy's "auto"; once a line has one, later lines are left alone);
//   - fix_encoding, reduced to ftfy's decode_inconsistent_utf8: every run of
//     Windows-1252/Latin-1 characters that spells a valid multi-byte UTF-8
//     sequence ("Ã©" → "é", "â€™" → "’") is decoded; ftfy's badness
//     heuristics, other single-byte encodings (Windows-1251, MacRoman, …),
//     restore_byte_a0 and replace_lossy_sequences are not reproduced;
//   - fix_c1_controls, fix_latin_ligatures, fix_character_width,
//     uncurl_quotes, fix_line_breaks, remove_terminal_escapes,
//     remove_control_chars and NFC, exactly.
func fixText(text string) string {
	var out strings.Builder
	unescape := true
	for pos := 0; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos + 1
		}
		seg := text[pos:end]
		if unescape && strings.Contains(seg, "<") {
			unescape = false
		}
		out.WriteString(fixSegment(seg, unescape))
		pos = end
	}
	return out.String()
}

// maxFixPasses bounds ftfy's "until nothing changes" loop.
const maxFixPasses = 8

func fixSegment(s string, unescape bool) string {
	for range maxFixPasses {
		orig := s
		if unescape {
			s = unescapeEntities(s)
		}
		s = decodeMojibake(s)
		s = fixC1Controls(s)
		s = mapRunes(s, ligatureOrWidth)
		s = fixLineBreaks(s)
		s = removeTerminalEscapes(s)
		s = mapRunes(s, controlOrQuote)
		s = norm.NFC.String(s)
		if s == orig {
			break
		}
	}
	return s
}

// unescapeEntities is ftfy's unescape_html: entities matching
// &#?[0-9A-Za-z]{1,24}; that HTML5 defines (plus upper-case spellings of
// lower-case names, which ftfy accepts) are replaced.
func unescapeEntities(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '&')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		s = s[i:]
		j := 1
		if j < len(s) && s[j] == '#' {
			j++
		}
		k := j
		for k < len(s) && k-j < 25 && isASCIIAlnum(s[k]) {
			k++
		}
		if k == j || k-j > 24 || k >= len(s) || s[k] != ';' {
			b.WriteByte('&')
			s = s[1:]
			continue
		}
		ent := s[:k+1]
		b.WriteString(unescapeEntity(ent))
		s = s[k+1:]
	}
}

func unescapeEntity(ent string) string {
	u := pyUnescapeHTML(ent)
	if strings.HasPrefix(ent, "&#") {
		if strings.Contains(u, ";") {
			return ent
		}
		return u
	}
	if u != ent && !strings.Contains(u, ";") {
		return u
	}
	// ftfy also decodes an upper-cased lower-case name, unless the
	// upper-case spelling already means something to html.unescape.
	if u == ent {
		if lower := strings.ToLower(ent); lower != ent && ent == strings.ToUpper(ent) {
			if lu := pyUnescapeHTML(lower); lu != lower && !strings.Contains(lu, ";") {
				return strings.ToUpper(lu)
			}
		}
	}
	return ent
}

func isASCIIAlnum(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// cp1252High maps bytes 0x80–0x9F to their Windows-1252 characters; the five
// bytes Windows-1252 leaves undefined map to the C1 controls of the same
// value, as ftfy's "sloppy-windows-1252".
var cp1252High = [32]rune{
	0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
	0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
}

// sloppyByte returns the byte that r came from when a byte string was
// decoded as sloppy Windows-1252 (or Latin-1, for the C1 controls).
func sloppyByte(r rune) (byte, bool) {
	if r < 0x100 {
		return byte(r), true
	}
	for i, c := range cp1252High {
		if c == r {
			return byte(0x80 + i), true
		}
	}
	return 0, false
}

// decodeMojibake decodes the runs of characters that are the Windows-1252
// reading of a multi-byte UTF-8 sequence.
func decodeMojibake(s string) string {
	if isASCII(s) {
		return s
	}
	rs := []rune(s)
	var b strings.Builder
	changed := false
	for i := 0; i < len(rs); {
		lead, ok := sloppyByte(rs[i])
		n := utf8SeqLen(lead)
		if ok && n > 1 && i+n <= len(rs) {
			buf := []byte{lead}
			for _, r := range rs[i+1 : i+n] {
				c, ok := sloppyByte(r)
				if !ok || c < 0x80 || c > 0xBF {
					break
				}
				buf = append(buf, c)
			}
			if len(buf) == n && utf8.Valid(buf) {
				b.Write(buf)
				i += n
				changed = true
				continue
			}
		}
		b.WriteRune(rs[i])
		i++
	}
	if !changed {
		return s
	}
	return b.String()
}

// utf8SeqLen is the length of the UTF-8 sequence a lead byte starts, 0 for
// a byte that cannot lead one.
func utf8SeqLen(c byte) int {
	switch {
	case c >= 0xC2 && c <= 0xDF:
		return 2
	case c >= 0xE0 && c <= 0xEF:
		return 3
	case c >= 0xF0 && c <= 0xF4:
		return 4
	}
	return 0
}

// fixC1Controls is ftfy's fix_c1_controls: U+0080–U+009F read as
// Windows-1252.
func fixC1Controls(s string) string {
	return mapRunes(s, func(r rune) (string, bool) {
		if r >= 0x80 && r <= 0x9F {
			return string(cp1252High[r-0x80]), true
		}
		return "", false
	})
}

// ligatures is ftfy's LIGATURES table.
var ligatures = map[rune]string{
	'Ĳ': "IJ", 'ĳ': "ij", 'ŉ': "ʼn", 'Ǳ': "DZ", 'ǲ': "Dz", 'ǳ': "dz",
	'Ǆ': "DŽ", 'ǅ': "Dž", 'ǆ': "dž", 'Ǉ': "LJ", 'ǈ': "Lj", 'ǉ': "lj",
	'Ǌ': "NJ", 'ǋ': "Nj", 'ǌ': "nj", 'ﬀ': "ff", 'ﬁ': "fi", 'ﬂ': "fl",
	'ﬃ': "ffi", 'ﬄ': "ffl", 'ﬅ': "ſt", 'ﬆ': "st",
}

// ligatureOrWidth is fix_latin_ligatures followed by fix_character_width
// (U+3000 and the NFKC forms of U+FF01–U+FFEF).
func ligatureOrWidth(r rune) (string, bool) {
	if l, ok := ligatures[r]; ok {
		return l, true
	}
	if r == 0x3000 {
		return " ", true
	}
	if r >= 0xFF01 && r <= 0xFFEF {
		if n := norm.NFKC.String(string(r)); n != string(r) {
			return n, true
		}
	}
	return "", false
}

// controlOrQuote is uncurl_quotes followed by remove_control_chars (the
// two touch disjoint characters).
func controlOrQuote(r rune) (string, bool) {
	switch {
	case r == 0x02BC || (r >= 0x2018 && r <= 0x201B):
		return "'", true
	case r >= 0x201C && r <= 0x201F:
		return `"`, true
	case r <= 0x08 || r == 0x0B || (r >= 0x0E && r <= 0x1F) || r == 0x7F,
		r >= 0x206A && r <= 0x206F, r == 0xFEFF, r >= 0xFFF9 && r <= 0xFFFC:
		return "", true
	}
	return "", false
}

// fixLineBreaks is ftfy's fix_line_breaks: CRLF, CR, U+2028, U+2029 and
// U+0085 become "\n".
func fixLineBreaks(s string) string {
	if !strings.ContainsAny(s, "\r\u2028\u2029\u0085") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.NewReplacer("\r", "\n", "\u2028", "\n", "\u2029", "\n", "\u0085", "\n").Replace(s)
}

// removeTerminalEscapes is ftfy's remove_terminal_escapes: ESC [ digits or
// semicolons, then one letter.
func removeTerminalEscapes(s string) string {
	if !strings.Contains(s, "\x1b[") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := i + 2
		for j < len(s) && (s[j] == ';' || (s[j] >= '0' && s[j] <= '9')) {
			j++
		}
		if j < len(s) && ((s[j] >= 'a' && s[j] <= 'z') || (s[j] >= 'A' && s[j] <= 'Z')) {
			b.WriteString(s[:i])
			s = s[j+1:]
			continue
		}
		b.WriteString(s[:i+1])
		s = s[i+1:]
	}
}

// mapRunes replaces every rune for which f reports true by f's string.
func mapRunes(s string, f func(rune) (string, bool)) string {
	var b *strings.Builder
	for i, r := range s {
		rep, ok := f(r)
		if !ok {
			if b != nil {
				b.WriteRune(r)
			}
			continue
		}
		if b == nil {
			b = &strings.Builder{}
			b.Grow(len(s))
			b.WriteString(s[:i])
		}
		b.WriteString(rep)
	}
	if b == nil {
		return s
	}
	return b.String()
}
