package ngram

import (
	"sync/atomic"

	"github.com/storyeval/storyeval/internal/parallel"
)

// ciderTableBudget bounds the bytes of the document-frequency tables held
// at once; a corpus whose reference n-grams need more is counted in several
// partitions, one after another.
const ciderTableBudget = 32 << 20

// dfBytesPerGram is the most a dfTable spends per n-gram it holds: a
// 16-byte slot at no less than a quarter load (it doubles at half load),
// the old half-size slots until the collector frees them, and the count.
const dfBytesPerGram = 4*16 + 2*16 + 2*4

// candResolved marks a candidate occurrence whose df entry already holds
// its table id (the n-gram is in the item's own references).
const candResolved = 1 << 31

// docFreqs returns CIDEr-D's document frequencies, the number of items
// whose references contain an n-gram: by token id for unigrams, and for
// every occurrence of a longer n-gram in every sentence (in occStart order).
//
// A unigram's count is kept by token id. A longer n-gram is interned as
// (id of its prefix, last token) in a dfTable, so a key is one 64-bit word
// however long the n-gram, and the n-grams starting at one position form a
// chain that stays within the partition of their first token. The
// partitions (balanced by the n-grams starting with each token) are
// counted in parallel, as many at once as there are workers, each in a
// table of at most budget/workers bytes; each partition is counted over the
// references, then written into the occurrences it covers. Besides the
// tables, the result holds four bytes per occurrence, however many
// distinct n-grams there are.
func (tc *tokenCorpus) docFreqs(budget int) ciderDF {
	df := make([]uint32, tc.occStart[len(tc.occStart)-1])
	weight, total := tc.gramWeights()
	workers := parallel.Workers(total, 1<<14)
	parts := 1
	if workers > 1 {
		parts = workers
	}
	for parts < 255 && parts*budget < dfBytesPerGram*total*workers {
		parts++
	}
	part, sizes := assignPartitions(weight, total, parts)
	tokens := make([]uint32, len(weight))
	lastItem := make([]uint32, len(weight)) // by token: item+1 of its last count
	var next atomic.Int32
	parallel.Chunks(min(workers, parts), 1, func(_, _, _ int) {
		var t *dfTable
		for p := int(next.Add(1)) - 1; p < parts; p = int(next.Add(1)) - 1 {
			if t == nil {
				t = newDFTable(sizes[p] / 2)
			} else {
				t.reset()
			}
			c := dfCounter{tc: tc, df: df, uni: tokens, uniLast: lastItem, t: t, part: part, p: uint8(p)}
			c.count()
			c.resolve()
		}
	})
	return ciderDF{tokens: tokens, grams: df}
}

// ciderDF holds CIDEr-D's document frequencies (see docFreqs).
type ciderDF struct {
	tokens []uint32 // by token id
	grams  []uint32 // by occurrence of an n-gram of order ≥ 2
}

// gramWeights returns, per token id, how many reference n-grams of orders
// 2..maxOrder start with the token, and their total.
func (tc *tokenCorpus) gramWeights() ([]int, int) {
	weight := make([]int, tc.vocab+1)
	total := 0
	for i := range tc.items() {
		for s := tc.itemSents[i] + 1; s < tc.itemSents[i+1]; s++ {
			tok := tc.sentence(s)
			for j, t := range tok {
				w := min(maxOrder-1, len(tok)-1-j)
				weight[t] += w
				total += w
			}
		}
	}
	return weight, total
}

// assignPartitions gives each token id one of parts partitions, in runs of
// consecutive ids of about equal weight, and returns it (nil for a single
// partition) with each partition's weight.
func assignPartitions(weight []int, total, parts int) ([]uint8, []int) {
	sizes := make([]int, parts)
	if parts == 1 {
		sizes[0] = total
		return nil, sizes
	}
	part := make([]uint8, len(weight))
	cum := 0
	for t, w := range weight {
		p := min(parts-1, cum*parts/max(1, total))
		part[t] = uint8(p)
		sizes[p] += w
		cum += w
	}
	return part, sizes
}

// dfCounter counts one partition's n-grams: those whose first token is in
// partition p (every n-gram when part is nil).
type dfCounter struct {
	tc      *tokenCorpus
	df      []uint32 // the result for orders ≥ 2, by occurrence
	uni     []uint32 // the result for unigrams, by token id
	uniLast []uint32 // by token id: item+1 of the last item that counted it
	t       *dfTable
	part    []uint8
	p       uint8
	off     [maxOrder]int // off[k]: where the sentence's (k+1)-grams start in df
}

// sentence sets the order offsets for sentence s and returns its tokens.
func (c *dfCounter) sentence(s int) []uint32 {
	tok := c.tc.sentence(s)
	o := c.tc.occStart[s]
	for k := 1; k < maxOrder; k++ {
		c.off[k] = o
		o += max(0, len(tok)-k)
	}
	return tok
}

func (c *dfCounter) mine(token uint32) bool { return c.part == nil || c.part[token] == c.p }

// gramKey is the table key of the n-gram extending the n-gram prefix
// (a token id for a unigram, vocab+table id otherwise) by token.
func gramKey(prefix, token uint32) uint64 { return uint64(prefix)<<32 | uint64(token) }

// count counts the partition's n-grams over every item's references and
// leaves in df each reference occurrence's table id, and the id (with
// candResolved) of each candidate occurrence whose n-gram the item's
// references hold. An item-local table in front of the big one counts each
// of an item's n-grams once and keeps repeats from probing the big table.
func (c *dfCounter) count() {
	local := newGramTable()
	vocab := uint32(c.tc.vocab)
	for i := range c.tc.items() {
		local.clear()
		item := uint32(i + 1)
		first, last := c.tc.itemSents[i], c.tc.itemSents[i+1]
		for s := first + 1; s < last; s++ {
			tok := c.sentence(s)
			for j, t := range tok {
				if !c.mine(t) {
					continue
				}
				if c.uniLast[t] != item {
					c.uniLast[t] = item
					c.uni[t]++
				}
				prefix := t
				for k := 1; k < maxOrder && j+k < len(tok); k++ {
					key := gramKey(prefix, tok[j+k])
					id, ok := local.find(key)
					if !ok {
						id = c.t.count(key)
						local.lookup(key, id)
					}
					c.df[c.off[k]+j] = id
					prefix = vocab + id
				}
			}
		}
		tok := c.sentence(first)
		for j, t := range tok {
			if !c.mine(t) {
				continue
			}
			prefix := t
			for k := 1; k < maxOrder && j+k < len(tok); k++ {
				id, ok := local.find(gramKey(prefix, tok[j+k]))
				if !ok {
					break // no reference of the item has a longer one either
				}
				c.df[c.off[k]+j] = id | candResolved
				prefix = vocab + id
			}
		}
	}
}

// resolve turns the partition's entries in df into document frequencies:
// table ids into their counts, and the candidates' other n-grams into the
// count the table has for them (0 for an n-gram no reference has).
func (c *dfCounter) resolve() {
	vocab := uint32(c.tc.vocab)
	for i := range c.tc.items() {
		first, last := c.tc.itemSents[i], c.tc.itemSents[i+1]
		for s := first; s < last; s++ {
			tok := c.sentence(s)
			for j, t := range tok {
				if !c.mine(t) {
					continue
				}
				if s != first {
					for k := 1; k < maxOrder && j+k < len(tok); k++ {
						o := c.off[k] + j
						c.df[o] = c.t.dfs[c.df[o]]
					}
					continue
				}
				prefix := t
				for k := 1; k < maxOrder && j+k < len(tok); k++ {
					o := c.off[k] + j
					id := c.df[o] &^ candResolved
					if c.df[o]&candResolved == 0 {
						id = c.t.find(gramKey(prefix, tok[j+k]))
					}
					if id == 0 {
						break // nor any longer one: the entries stay 0
					}
					c.df[o] = c.t.dfs[id]
					prefix = vocab + id
				}
			}
		}
	}
}

// dfTable interns n-gram keys to dense ids with open addressing and counts
// each id's documents; the zero key (no token has id 0) marks an empty
// slot. It doubles at half load.
type dfTable struct {
	slots []dfSlot
	shift uint     // 64 - log2(len(slots))
	dfs   []uint32 // document count by id; id 0 is unused (find's "absent")
}

type dfSlot struct {
	key uint64
	id  uint32
}

// newDFTable returns a table of about slots slots (a power of two, at
// least 1024).
func newDFTable(slots int) *dfTable {
	size := 1 << 10
	for size < slots {
		size *= 2
	}
	t := &dfTable{dfs: []uint32{0}}
	t.alloc(size)
	return t
}

func (t *dfTable) alloc(size int) {
	t.slots = make([]dfSlot, size)
	t.shift = 64
	for s := size; s > 1; s >>= 1 {
		t.shift--
	}
}

func (t *dfTable) reset() {
	clear(t.slots)
	t.dfs = t.dfs[:1]
}

// count adds one document to key's count and returns key's id. Callers
// count an item's n-gram once (see dfCounter.count).
func (t *dfTable) count(key uint64) uint32 {
	mask := uint64(len(t.slots) - 1)
	for i := (key * 0x9E3779B97F4A7C15) >> t.shift; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.key == key {
			t.dfs[sl.id]++
			return sl.id
		}
		if sl.key == 0 {
			if 2*len(t.dfs) > len(t.slots) {
				t.grow()
				return t.count(key)
			}
			id := uint32(len(t.dfs))
			*sl = dfSlot{key, id}
			t.dfs = append(t.dfs, 1)
			return id
		}
	}
}

// find returns the id of key, 0 if absent.
func (t *dfTable) find(key uint64) uint32 {
	mask := uint64(len(t.slots) - 1)
	for i := (key * 0x9E3779B97F4A7C15) >> t.shift; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.key == key {
			return sl.id
		}
		if sl.key == 0 {
			return 0
		}
	}
}

// grow doubles the table, keeping its entries and ids.
func (t *dfTable) grow() {
	old := t.slots
	t.alloc(2 * len(old))
	mask := uint64(len(t.slots) - 1)
	for _, sl := range old {
		if sl.key == 0 {
			continue
		}
		i := (sl.key * 0x9E3779B97F4A7C15) >> t.shift
		for t.slots[i].key != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = sl
	}
}
