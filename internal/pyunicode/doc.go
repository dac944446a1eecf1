// Package pyunicode answers the character questions that Python's str
// methods and its re module ask, so that text code ported from NLTK makes the
// same decisions on every code point, not only on ASCII.
//
// Go's regexp classes \s, \w, \d and \b are ASCII-only, while Python 3 applies
// them to all of Unicode; str.lower also differs from strings.ToLower for one
// code point. The functions here follow CPython 3.11 (Unicode 14; Go's tables
// are Unicode 15, which only matters for code points added in 15).
package pyunicode
