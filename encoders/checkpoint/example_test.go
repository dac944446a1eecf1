package checkpoint_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/storyeval/storyeval/encoders/checkpoint"
)

// Open a training checkpoint (a torch.save zip of {"epoch", "model":
// state_dict, "opt": argparse.Namespace, …}), read the epoch and a
// hyper-parameter of the inert Namespace, and select the weights of an
// ALBERT encoder stored under a prefix of the state_dict.
func ExampleOpen() {
	st, err := checkpoint.Open("../../testdata/e2e/rovist_c/sop_model_epoch4.pth.tar")
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	epoch, _ := st.Value("epoch")
	opt, _ := st.Value("opt")
	bs, _ := opt.(*checkpoint.Object).Attr("batch_size")
	fmt.Println(st.Format(), "epoch", epoch, "batch_size", bs)

	albert := st.Sub("model.albert_model.")
	info, _ := albert.Info("embeddings.word_embeddings.weight")
	fmt.Println(info.DType, info.Shape)
	w, err := st.Float32("model.linear.weight")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(w.Shape())
	// Output:
	// torch-zip epoch 4 batch_size 32
	// F32 [30000 8]
	// (2, 48)
}

// OpenDir picks model.safetensors in a HuggingFace model directory.
func ExampleOpenDir() {
	st, err := checkpoint.OpenDir("../../testdata/encoders/fixtures/vit")
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	fmt.Println(st.Format(), st.Len(), "tensors")
	cls, err := st.Float32("embeddings.cls_token")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(cls.Shape())
	// Output:
	// safetensors 40 tensors
	// (1, 1, 32)
}

// DecodePickle reads auxiliary pickles such as a metric's idf dictionary
// without executing anything; unknown classes come back inert.
func ExampleDecodePickle() {
	// pickle.dumps({"dog": 2.5, "opt": os.system("x")}) as an attacker would
	// write it: the call is recorded, never made.
	data := []byte("\x80\x02}(X\x03\x00\x00\x00dogG@\x04\x00\x00\x00\x00\x00\x00X\x03\x00\x00\x00optcos\nsystem\nX\x01\x00\x00\x00x\x85Ru.")
	v, err := checkpoint.DecodePickle(data, checkpoint.Options{})
	if err != nil {
		log.Fatal(err)
	}
	d := v.(*checkpoint.Dict)
	dog, _ := d.Get("dog")
	opt, _ := d.Get("opt")
	fmt.Println(dog, opt.(*checkpoint.Object).Class, opt.(*checkpoint.Object).Args)
	// Output:
	// 2.5 os.system [x]
}

// Build a State over tensors held in memory (a trainer's weights, say), from
// which a model can be built without a file; Float32 shares the slices.
func ExampleFromFloat32() {
	w := []float32{1, 2, 3, 4, 5, 6}
	st, err := checkpoint.FromFloat32([]checkpoint.Float32Tensor{{Name: "dense.weight", Shape: []int{2, 3}, Data: w}})
	if err != nil {
		log.Fatal(err)
	}
	t, err := st.Float32("dense.weight")
	if err != nil {
		log.Fatal(err)
	}
	w[0] = 10 // the State reads the caller's slice
	fmt.Println(st.Format(), t.Shape(), t.Float32s())
	// Output: memory (2, 3) [10 2 3 4 5 6]
}

// Convert a torch.save checkpoint to safetensors, dropping the dict's
// "model." prefix, and open the result: the 13 tensors of the fixture
// (strided views, F16/BF16/F64 and integer buffers among them) are stored
// as float32 and int64, and the non-tensor entries (epoch, options) are
// gone.
func ExampleConvertFile() {
	dir, err := os.MkdirTemp("", "convert")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "model.safetensors")
	n, err := checkpoint.ConvertFile("testdata/torch_zip_views.pt", out, checkpoint.ConvertOptions{StripPrefix: "model."})
	if err != nil {
		log.Fatal(err)
	}
	st, err := checkpoint.Open(out)
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	info, _ := st.Info("half")
	fmt.Println(n, "tensors;", st.Format(), "holds", st.Len(), "and", len(st.ValueNames()), "other entries")
	fmt.Println("half:", info.DType, info.Shape)
	// Output:
	// 13 tensors; safetensors holds 13 and 0 other entries
	// half: F32 [2 3]
}
