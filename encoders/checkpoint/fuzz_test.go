package checkpoint

import (
	"encoding/hex"
	"os"
	"testing"
)

// The fuzz targets feed arbitrary bytes to each reader with small limits and
// read every tensor of whatever opens: no input may panic, hang or allocate
// beyond the limits. Run each with e.g.
//
//	go test -run=^$ -fuzz=FuzzSafetensors -fuzztime=20s ./encoders/checkpoint/

var fuzzOptions = Options{
	MaxHeaderBytes:       1 << 16,
	MaxPickleBytes:       1 << 16,
	MaxTensorElements:    1 << 16,
	MaxDecompressedBytes: 1 << 20,
}.withDefaults()

// openAndReadAll parses data as a checkpoint file and reads every tensor.
func openAndReadAll(t *testing.T, data []byte) {
	st, err := fuzzOptions.parse("fuzz", data)
	if err != nil {
		return
	}
	for _, name := range st.Names() {
		info, _ := st.Info(name)
		if info.DType.IsFloat() {
			st.Float32(name)
		} else {
			st.Int64(name)
		}
	}
	st.ValueNames()
	st.Sub("model.").Names()
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
}

func addFileSeed(f *testing.F, path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
}

func FuzzSafetensors(f *testing.F) {
	// Small seeds: the mutator and the minimiser are slow on large inputs.
	f.Add(safetensorsBytes(`{"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]},"i":{"dtype":"I64","shape":[1],"data_offsets":[16,24]}}`, make([]byte, 24)))
	f.Add(safetensorsBytes(`{"h":{"dtype":"F16","shape":[3],"data_offsets":[0,6]}}`, []byte{0, 0x3c, 0, 0xc0, 0xff, 0x7b}))
	f.Add(safetensorsBytes(`{"a":{"dtype":"BF16","shape":[2],"data_offsets":[0,4]},"__metadata__":{"k":"v"}}`, []byte{1, 2, 3, 4}))
	f.Add(safetensorsBytes(`{"s":{"dtype":"F64","shape":[],"data_offsets":[0,8]}}`, make([]byte, 8)))
	f.Fuzz(func(t *testing.T, data []byte) {
		openAndReadAll(t, data)
	})
}

func FuzzPickle(f *testing.F) {
	for _, h := range pythonPickles {
		b, _ := hex.DecodeString(h)
		f.Add(b)
	}
	f.Add([]byte("cos\nsystem\n(S'echo hacked'\ntR."))
	f.Add(pklOneTensor(2, 2))
	f.Fuzz(func(t *testing.T, data []byte) {
		DecodePickle(data, fuzzOptions)
		// The same bytes as a torch pickle, with the torch globals allowed.
		tu := newTorchUnpickler(true)
		if v, _, err := decodePickle(data, tu.resolve, tu.persistentLoad); err == nil {
			st := newState(FormatTorchLegacy)
			st.addPickled(v, map[*storageRef][]byte{}, len(data))
		}
	})
}

func FuzzTorchZip(f *testing.F) {
	addFileSeed(f, "testdata/torch_zip_views.pt")
	f.Add(torchZip(f, []zipEntrySpec{{name: "m/data.pkl", data: pklOneTensor(2, 2)}, {name: "m/data/0", data: float32LE(1.5, -2)}}))
	f.Fuzz(func(t *testing.T, data []byte) {
		openAndReadAll(t, data)
	})
}

func FuzzTorchLegacy(f *testing.F) {
	addFileSeed(f, "testdata/torch_legacy_views.pt")
	f.Fuzz(func(t *testing.T, data []byte) {
		openAndReadAll(t, data)
	})
}
