package vrank_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/storyeval/storyeval/vrank"
)

func ExampleVHEDDecode() {
	const csv = `sent1,sent2,label,story_id,model_base,model_comp,agreement,img_seq,avg_rank_base,avg_rank_comp,order,rank_norm
we went to the beach .,the the the beach .,-2.4,7,human,glac,5,"[1, 2, 3, 4, 5]",1.2,3.6,5,-0.48
`
	pairs, err := vrank.VHEDDecode(strings.NewReader(csv), vrank.VHEDReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	p := pairs[0]
	fmt.Printf("%s vs %s: gap %v (story 1 better: %v), %d annotators agree\n", p.Model1, p.Model2, p.Gap, p.Gap < 0, p.Agreement)

	_, err = vrank.VHEDDecode(strings.NewReader(strings.Replace(csv, "-2.4", "better", 1)), vrank.VHEDReadOptions{})
	fmt.Println(err)
	// Output:
	// human vs glac: gap -2.4 (story 1 better: true), 5 annotators agree
	// vrank: VHED: line 2, column label: "better" is not a finite number
}
