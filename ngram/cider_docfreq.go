package ngram

import (
	"math/bits"

	"github.com/storyeval/storyeval/internal/parallel"
)

// ciderTableBudget bounds the bytes of the document-frequency tables held
// at once; a corpus whose reference n-grams need more is counted in several
// hash partitions.
const ciderTableBudget = 64 << 20

// dfSlotBytes is the size of one dfTable slot.
const dfSlotBytes = 24

// docFreqs returns, for every n-gram occurrence of every sentence (in
// occStart order), the number of items whose references contain that
// n-gram: CIDEr-D's document frequency. The n-grams are split into hash
// partitions small enough that the tables of the partitions counted at
// once fit in budget bytes; each partition is counted over the references,
// then written into the occurrences it covers. Besides the tables, the
// result holds four bytes per occurrence (and, with several partitions,
// one byte more), however many distinct n-grams there are.
func (tc *tokenCorpus) docFreqs(budget int) []uint32 {
	df := make([]uint32, tc.occStart[len(tc.occStart)-1])
	need := 2 * dfSlotBytes * tc.refOccs
	workers := parallel.Workers(tc.refOccs, 1<<14)
	if workers == 1 && need <= budget {
		t := newDFTable(tc.refOccs / 2)
		tc.countPartition(t, df, nil, 0)
		// The table is only read now: the occurrences are filled in
		// parallel.
		parallel.Chunks(tc.sentences(), 256, func(_, lo, hi int) {
			tc.readPartition(t, df, nil, 0, lo, hi)
		})
		return df
	}
	// At least one partition per worker, so that the workers count in
	// parallel, each in its own table.
	parts := 2
	for (parts < workers || parts*budget < need*workers) && parts < 256 { // partitions are numbered in a byte
		parts *= 2
	}
	part := tc.partitionOf(uint64(parts - 1))
	parallel.Chunks(parts, 1, func(_, lo, hi int) {
		t := newDFTable(min(tc.refOccs/parts/2, budget/(workers*dfSlotBytes)))
		for p := lo; p < hi; p++ {
			t.reset()
			tc.countPartition(t, df, part, uint8(p))
			tc.readPartition(t, df, part, uint8(p), 0, tc.sentences())
		}
	})
	return df
}

// partitionOf returns the hash partition (hash & mask) of every occurrence.
func (tc *tokenCorpus) partitionOf(mask uint64) []uint8 {
	part := make([]uint8, tc.occStart[len(tc.occStart)-1])
	parallel.Chunks(tc.sentences(), 256, func(_, lo, hi int) {
		for s := lo; s < hi; s++ {
			tok := tc.sentence(s)
			o := tc.occStart[s]
			for k := 1; k <= maxOrder; k++ {
				for j := 0; j+k <= len(tok); j, o = j+1, o+1 {
					part[o] = uint8(makeGramKey(tok[j:j+k]).hash() & mask)
				}
			}
		}
	})
	return part
}

// candResolved marks a candidate occurrence whose df entry already holds
// its table id (the n-gram is in the item's own references).
const candResolved = 1 << 31

// countPartition counts, for each n-gram of partition p (every n-gram when
// part is nil), the items whose references contain it, and leaves in df
// each reference occurrence's table id, and the id (with candResolved) of
// each candidate occurrence whose n-gram the item's references hold. An
// item-local table in front of the big one keeps the n-grams an item's
// references share from probing it more than once.
func (tc *tokenCorpus) countPartition(t *dfTable, df []uint32, part []uint8, p uint8) {
	local := newItemTable()
	for i := range tc.items() {
		local.clear()
		first, last := tc.itemSents[i], tc.itemSents[i+1]
		for s := first + 1; s < last; s++ {
			tok := tc.sentence(s)
			o := tc.occStart[s]
			for k := 1; k <= maxOrder; k++ {
				for j := 0; j+k <= len(tok); j, o = j+1, o+1 {
					if part != nil && part[o] != p {
						continue
					}
					key := makeGramKey(tok[j : j+k])
					h := key.hash()
					id, ok := local.find(key, h)
					if !ok {
						id = t.count(key, h, uint32(i+1))
						local.add(key, h, id)
					}
					df[o] = id
				}
			}
		}
		tok := tc.sentence(first)
		o := tc.occStart[first]
		for k := 1; k <= maxOrder; k++ {
			for j := 0; j+k <= len(tok); j, o = j+1, o+1 {
				if part != nil && part[o] != p {
					continue
				}
				key := makeGramKey(tok[j : j+k])
				if id, ok := local.find(key, key.hash()); ok {
					df[o] = id | candResolved
				}
			}
		}
	}
}

// readPartition turns the table ids countPartition left in the occurrences
// of sentences [lo, hi) into document frequencies, and looks up the
// candidates' other occurrences (0 for an n-gram no reference has).
func (tc *tokenCorpus) readPartition(t *dfTable, df []uint32, part []uint8, p uint8, lo, hi int) {
	item := 0
	for s := lo; s < hi; s++ {
		for tc.itemSents[item+1] <= s {
			item++
		}
		isCand := tc.itemSents[item] == s
		tok := tc.sentence(s)
		o := tc.occStart[s]
		for k := 1; k <= maxOrder; k++ {
			for j := 0; j+k <= len(tok); j, o = j+1, o+1 {
				if part != nil && part[o] != p {
					continue
				}
				switch {
				case !isCand:
					df[o] = t.info[df[o]].df
				case df[o]&candResolved != 0:
					df[o] = t.info[df[o]&^candResolved].df
				default:
					key := makeGramKey(tok[j : j+k])
					df[o] = t.find(key, key.hash())
				}
			}
		}
	}
}

// itemTable is a small open-addressing map from n-gram keys to table ids,
// cleared in O(1) between items by a generation stamp.
type itemTable struct {
	keys  []gramKey
	ids   []uint32
	stamp []uint32
	gen   uint32
	n     int
	shift uint
}

func newItemTable() *itemTable {
	t := &itemTable{}
	t.alloc(1 << 9)
	return t
}

func (t *itemTable) alloc(size int) {
	t.keys = make([]gramKey, size)
	t.ids = make([]uint32, size)
	t.stamp = make([]uint32, size)
	t.gen, t.n = 1, 0
	t.shift = uint(64 - bits.TrailingZeros(uint(size)))
}

func (t *itemTable) clear() {
	t.gen++
	t.n = 0
	if t.gen == 0 { // wrapped: stale stamps could look current
		clear(t.stamp)
		t.gen = 1
	}
}

func (t *itemTable) find(key gramKey, h uint64) (uint32, bool) {
	mask := uint64(len(t.keys) - 1)
	for i := h >> t.shift; t.stamp[i] == t.gen; i = (i + 1) & mask {
		if t.keys[i] == key {
			return t.ids[i], true
		}
	}
	return 0, false
}

// add stores key (known to be absent) with its id.
func (t *itemTable) add(key gramKey, h uint64, id uint32) {
	if 2*(t.n+1) > len(t.keys) {
		keys, ids, stamp, gen := t.keys, t.ids, t.stamp, t.gen
		t.alloc(2 * len(keys))
		for j, s := range stamp {
			if s == gen {
				t.add(keys[j], keys[j].hash(), ids[j])
			}
		}
	}
	mask := uint64(len(t.keys) - 1)
	i := h >> t.shift
	for t.stamp[i] == t.gen {
		i = (i + 1) & mask
	}
	t.keys[i], t.ids[i], t.stamp[i] = key, id, t.gen
	t.n++
}

// dfTable interns n-gram keys to dense ids with open addressing and counts
// each id's documents; the zero key (no token has id 0) marks an empty
// slot. It starts at a size for a quarter of the occurrences being distinct
// (a corpus of paraphrases repeats most n-grams) and doubles at half load.
type dfTable struct {
	slots []dfSlot
	shift uint
	info  []dfInfo // by id; id 0 is unused (find's "absent")
}

type dfSlot struct {
	key gramKey
	id  uint32
}

type dfInfo struct {
	df   uint32 // number of items whose references hold the n-gram
	last uint32 // item+1 of the last item that counted it
}

// newDFTable returns a table of about slots slots (a power of two, at
// least 4096).
func newDFTable(slots int) *dfTable {
	t := &dfTable{}
	t.alloc(max(1<<12, 1<<bits.Len(uint(slots-1))))
	t.reset()
	return t
}

func (t *dfTable) alloc(size int) {
	t.slots = make([]dfSlot, size)
	t.shift = uint(64 - bits.TrailingZeros(uint(size)))
}

func (t *dfTable) reset() {
	clear(t.slots)
	t.info = append(t.info[:0], dfInfo{})
}

// count adds item to the documents of key, unless it already counted, and
// returns key's id.
func (t *dfTable) count(key gramKey, h uint64, item uint32) uint32 {
	mask := uint64(len(t.slots) - 1)
	for i := h >> t.shift; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.key == key {
			if in := &t.info[sl.id]; in.last != item {
				in.last = item
				in.df++
			}
			return sl.id
		}
		if sl.key == (gramKey{}) {
			if 2*len(t.info) > len(t.slots) {
				t.grow()
				return t.count(key, h, item)
			}
			id := uint32(len(t.info))
			*sl = dfSlot{key, id}
			t.info = append(t.info, dfInfo{df: 1, last: item})
			return id
		}
	}
}

// find returns the document frequency of key, 0 if absent.
func (t *dfTable) find(key gramKey, h uint64) uint32 {
	mask := uint64(len(t.slots) - 1)
	for i := h >> t.shift; ; i = (i + 1) & mask {
		sl := &t.slots[i]
		if sl.key == key {
			return t.info[sl.id].df
		}
		if sl.key == (gramKey{}) {
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
		if sl.key == (gramKey{}) {
			continue
		}
		i := sl.key.hash() >> t.shift
		for t.slots[i].key != (gramKey{}) {
			i = (i + 1) & mask
		}
		t.slots[i] = sl
	}
}
