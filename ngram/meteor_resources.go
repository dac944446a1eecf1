package ngram

import (
	"bytes"
	"compress/gzip"
	"embed"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// meteorData holds the Meteor 1.5 English resources (github.com/cmu-mtlab/meteor
// resources/): function words, non-breaking prefixes and the WordNet-derived
// synonym synsets and morphological exceptions, each gzipped. english.relations
// is not embedded: Meteor 1.5 never loads it (SynonymDictionary has LOAD_DATA =
// false). Licence notices are in meteordata/NOTICE and COPYING.WORDNET.gz.
//
//go:embed meteordata/*.gz meteordata/NOTICE
var meteorData embed.FS

// meteorNBPAny and meteorNBPNumericOnly are the two kinds of non-breaking
// prefix in english.prefixes (Constants.NBP_ANY, NBP_NUM_ONLY).
const (
	meteorNBPAny         = 1
	meteorNBPNumericOnly = 2
)

// meteorResources is the parsed English data, shared read-only by every Meteor.
type meteorResources struct {
	functionWords map[string]bool
	prefixes      map[string]int
	// synsets maps a word to its synset numbers (english.synsets).
	synsets map[string][]int32
	// bases maps an irregular form to its base forms (english.exceptions), in
	// file order.
	bases map[string][]string
}

var (
	meteorResourcesOnce sync.Once
	meteorResourcesData *meteorResources
	meteorResourcesErr  error
)

// loadMeteorResources parses the embedded resources once; later calls return
// the same (immutable) value.
func loadMeteorResources() (*meteorResources, error) {
	meteorResourcesOnce.Do(func() {
		meteorResourcesData, meteorResourcesErr = parseMeteorResources()
	})
	return meteorResourcesData, meteorResourcesErr
}

func readMeteorData(name string) ([]byte, error) {
	raw, err := meteorData.ReadFile("meteordata/" + name + ".gz")
	if err != nil {
		return nil, fmt.Errorf("meteor: embedded resource %s: %w", name, err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("meteor: embedded resource %s: %w", name, err)
	}
	data, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("meteor: embedded resource %s: %w", name, err)
	}
	return data, nil
}

// meteorLines splits data into lines the way Java's BufferedReader.readLine
// does (\n, \r\n or \r ends a line).
func meteorLines(data []byte) []string {
	s := string(data)
	var lines []string
	for len(s) > 0 {
		i := strings.IndexAny(s, "\r\n")
		if i < 0 {
			lines = append(lines, s)
			break
		}
		lines = append(lines, s[:i])
		if s[i] == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			i++
		}
		s = s[i+1:]
	}
	return lines
}

func parseMeteorResources() (*meteorResources, error) {
	res := &meteorResources{
		functionWords: map[string]bool{},
		prefixes:      map[string]int{},
	}

	// Function words: one per line, taken verbatim (Aligner.setupModules).
	data, err := readMeteorData("english.words")
	if err != nil {
		return nil, err
	}
	for _, line := range meteorLines(data) {
		res.functionWords[line] = true
	}

	// Non-breaking prefixes (Normalizer.nbpList).
	if data, err = readMeteorData("english.prefixes"); err != nil {
		return nil, err
	}
	for _, line := range meteorLines(data) {
		fields := meteorJavaTokens(line, nil)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		kind := meteorNBPAny
		if len(fields) > 1 && fields[1] == "#NUMERIC_ONLY#" {
			kind = meteorNBPNumericOnly
		}
		res.prefixes[fields[0]] = kind
	}

	// Exceptions: pairs of lines "base" / "form form ..." (SynonymDictionary).
	if data, err = readMeteorData("english.exceptions"); err != nil {
		return nil, err
	}
	lines := meteorLines(data)
	res.bases = make(map[string][]string, len(lines))
	for i := 0; i+1 < len(lines); i += 2 {
		base := lines[i]
		for _, form := range meteorJavaTokens(lines[i+1], nil) {
			res.bases[form] = append(res.bases[form], base)
		}
	}

	// Synsets: pairs of lines "word" / "id id ...". The ids of all words
	// share one backing array, sized from the byte count so that it never
	// moves while the per-word slices are cut from it.
	if data, err = readMeteorData("english.synsets"); err != nil {
		return nil, err
	}
	text := string(data)
	res.synsets = make(map[string][]int32, strings.Count(text, "\n")/2+1)
	ids := make([]int32, 0, strings.Count(text, " ")+strings.Count(text, "\n")+1)
	var word string
	var toks []string
	lineNo := 0
	for len(text) > 0 {
		line := text
		if k := strings.IndexAny(text, "\r\n"); k >= 0 {
			line = text[:k]
			if text[k] == '\r' && k+1 < len(text) && text[k+1] == '\n' {
				k++
			}
			text = text[k+1:]
		} else {
			text = ""
		}
		lineNo++
		if lineNo%2 == 1 {
			word = line
			continue
		}
		start := len(ids)
		toks = meteorJavaTokens(line, toks[:0])
		for _, tok := range toks {
			n, err := strconv.ParseInt(tok, 10, 32)
			if err != nil {
				return nil, fmt.Errorf("meteor: english.synsets line %d: %w", lineNo, err)
			}
			if len(ids) == cap(ids) {
				return nil, fmt.Errorf("meteor: english.synsets line %d: more ids than expected", lineNo)
			}
			ids = append(ids, int32(n))
		}
		set := ids[start:len(ids):len(ids)]
		if !slices.IsSorted(set) {
			meteorSortUnique(&set)
		} else {
			set = slices.Compact(set)
		}
		// Java's Hashtable.put replaces an earlier entry for the same word.
		res.synsets[word] = set
	}
	return res, nil
}

// meteorSortUnique sorts the int32 set in place and drops duplicates.
func meteorSortUnique(s *[]int32) {
	slices.Sort(*s)
	*s = slices.Compact(*s)
}

// meteorJavaTokens splits s like java.util.StringTokenizer with its default
// delimiters " \t\n\r\f" (no other white space), appending to dst.
func meteorJavaTokens(s string, dst []string) []string {
	start := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\f':
			if start >= 0 {
				dst = append(dst, s[start:i])
				start = -1
			}
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}
