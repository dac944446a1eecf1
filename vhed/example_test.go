package vhed_test

import (
	"fmt"
	"io"
	"log"
	"strings"

	"github.com/storyeval/storyeval/vhed"
)

// The human order comes from the average ranks (lower is better); the
// label's sign is checked against them. This file's label is
// avg_rank_comp − avg_rank_base, as in the VHED workflow figure: it is
// recognised, and the gap still says story 1 is better.
func ExampleReadAll() {
	const csv = `sent1,sent2,label,story_id,model_base,model_comp,agreement,img_seq,avg_rank_base,avg_rank_comp,order,rank_norm
we went to the beach .,the the the beach .,2.4,7,human,glac,5,"[1, 2, 3, 4, 5]",1.2,3.6,5,0.48
the beach was fun .,the the the beach .,1.6,7,arel,glac,4,"[1, 2, 3, 4, 5]",2.0,3.6,5,0.32
`
	pairs, sign, err := vhed.ReadAll(strings.NewReader(csv), vhed.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	p := pairs[0]
	fmt.Printf("%s vs %s: gap %.1f (story 1 better: %v), %d annotators agree, images %s\n",
		p.Model1, p.Model2, p.Gap, p.Gap < 0, p.Agreement, p.ImageSeqKey)
	fmt.Println("label:", sign)

	_, err = vhed.Read(strings.NewReader(strings.Replace(csv, "2.4", "better", 1)), vhed.ReadOptions{})
	fmt.Println(err)
	_, err = vhed.Read(strings.NewReader(strings.Replace(csv, "1.6", "-1.6", 1)), vhed.ReadOptions{})
	fmt.Println(err)
	// Output:
	// human vs glac: gap -2.4 (story 1 better: true), 5 annotators agree, images 1,2,3,4,5
	// label: avg_rank_comp − avg_rank_base (reversed, as the VHED workflow figure): human order taken from the ranks
	// line 2, column label: "better" is not a finite number
	// label contradicts avg_rank_base and avg_rank_comp on 1 row(s), line(s) 2: its sign is the reverse of the other 1 rows' convention (label = avg_rank_base − avg_rank_comp)
}

// A Reader hands the rows over one at a time, so a large file is never
// held whole; the label check's verdict comes with the end of the input.
func ExampleNewReader() {
	const csv = `sent1,sent2,label,story_id,model_base,model_comp,agreement,img_seq,avg_rank_base,avg_rank_comp,order,rank_norm
we went to the beach .,the the the beach .,-2.4,7,human,glac,5,"[1, 2, 3, 4, 5]",1.2,3.6,5,-0.48
the beach was fun .,the the the beach .,-1.6,7,arel,glac,4,"[1, 2, 3, 4, 5]",2.0,3.6,5,-0.32
we went to the beach .,the beach was fun .,-0.8,7,human,arel,3,"[1, 2, 3, 4, 5]",1.2,2.0,5,-0.16
`
	r, err := vhed.NewReader(strings.NewReader(csv), vhed.ReadOptions{})
	if err != nil {
		log.Fatal(err)
	}
	for {
		p, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("line %d: %s vs %s, Ω%d, rank_norm %v\n", p.Line, p.Model1, p.Model2, p.Agreement, p.RankNorm)
	}
	fmt.Println("label:", r.LabelSign())
	// Output:
	// line 2: human vs glac, Ω5, rank_norm -0.48
	// line 3: arel vs glac, Ω4, rank_norm -0.32
	// line 4: human vs arel, Ω3, rank_norm -0.16
	// label: avg_rank_base − avg_rank_comp (the paper's text)
}

func ExampleImageIDs() {
	for _, seq := range []string{"[101, 102, 103]", "['101', '102', '103']", "101 102 103"} {
		ids, err := vhed.ImageIDs(seq)
		fmt.Println(ids, err)
	}
	_, err := vhed.ImageIDs("[101, [102]]")
	fmt.Println(err)
	// Output:
	// [101 102 103] <nil>
	// [101 102 103] <nil>
	// [101 102 103] <nil>
	// image sequence "[101, [102]]": id 2 is "[102]", not an id
}
