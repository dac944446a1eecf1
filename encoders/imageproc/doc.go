// Package imageproc turns image files into the pixel_values tensors that
// HuggingFace's ViTImageProcessor and CLIPImageProcessor (transformers 4.29,
// Pillow 9.4) produce, so that the neural metrics see the same numbers as the
// reference Python code.
//
// The pipeline is: [Decode] (PNG or JPEG, converted to 8-bit RGB as Pillow's
// Image.convert("RGB")), optionally [Crop] to a region box, then
// [Processor.Preprocess]: [Resize] with Pillow's resampling filters,
// [CenterCrop], rescale, normalise, and a channels-first float32 layout.
//
// Parity: resizing, cropping and the float32 arithmetic reproduce Pillow and
// HuggingFace bit for bit. JPEG files are decoded by a port of the parts of
// libjpeg-turbo that decide the pixel values (the islow integer IDCT,
// "fancy" triangular chroma upsampling, the integer YCbCr→RGB tables), so
// baseline and progressive Huffman JPEGs decode to Pillow's bytes exactly;
// other JPEG variants fall back to the standard library's decoder with
// libjpeg's upsampling and colour tables, within a few levels of Pillow.
//
// Memory: decoding checks the header against a pixel limit
// (DecodeOptions.MaxPixels) before allocating, PNGs are decoded row by row
// straight into RGB (3 bytes a pixel), and [Processor.PreprocessFile] and
// its variants reserve each image's memory from a [DecodeBudget] shared by
// the goroutines that decode, so that several huge images take turns
// instead of being held at once. Preprocessing sizes are bounded by
// [MaxSide].
//
// All functions are safe for concurrent use; nothing holds global mutable
// state.
package imageproc
