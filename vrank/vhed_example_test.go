package vrank_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/storyeval/storyeval/vrank"
)

// The human order comes from the average ranks (lower is better); the
// label's sign is checked against them. This file's label is
// avg_rank_comp − avg_rank_base, as in the VHED workflow figure: it is
// recognised, and the gap still says story 1 is better.
func ExampleVHEDReadAll() {
	const csv = `sent1,sent2,label,story_id,model_base,model_comp,agreement,img_seq,avg_rank_base,avg_rank_comp,order,rank_norm
we went to the beach .,the the the beach .,2.4,7,human,glac,5,"[1, 2, 3, 4, 5]",1.2,3.6,5,0.48
the beach was fun .,the the the beach .,1.6,7,arel,glac,4,"[1, 2, 3, 4, 5]",2.0,3.6,5,0.32
`
	pairs, sign, err := vrank.VHEDReadAll(strings.NewReader(csv), vrank.VHEDReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	p := pairs[0]
	fmt.Printf("%s vs %s: gap %.1f (story 1 better: %v), %d annotators agree, images %s\n",
		p.Model1, p.Model2, p.Gap, p.Gap < 0, p.Agreement, p.ImageSeqKey)
	fmt.Println("label:", sign)

	_, err = vrank.VHEDDecode(strings.NewReader(strings.Replace(csv, "2.4", "better", 1)), vrank.VHEDReadOptions{})
	fmt.Println(err)
	_, err = vrank.VHEDDecode(strings.NewReader(strings.Replace(csv, "1.6", "-1.6", 1)), vrank.VHEDReadOptions{})
	fmt.Println(err)
	// Output:
	// human vs glac: gap -2.4 (story 1 better: true), 5 annotators agree, images 1,2,3,4,5
	// label: avg_rank_comp − avg_rank_base (reversed, as the VHED workflow figure): human order taken from the ranks
	// vrank: VHED: line 2, column label: "better" is not a finite number
	// vrank: VHED: label contradicts avg_rank_base and avg_rank_comp on 1 row(s), line(s) 2: its sign is the reverse of the other 1 rows' convention (label = avg_rank_base − avg_rank_comp)
}
