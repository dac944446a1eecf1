// Package imageproc turns image files into the pixel_values tensors that
// HuggingFace's ViTImageProcessor and CLIPImageProcessor (transformers 4.29,
// Pillow 9.4) produce, so that the neural metrics see the same numbers as the
// reference Python code.
//
// The pipeline is: [Decode] (PNG or JPEG, converted to 8-bit RGB as Pillow's
// Image.convert("RGB")), optionally [Crop] to a region box, then
// [Processor.Preprocess]: [Resize] with Pillow's resampling filters, [CenterCrop],
// rescale, normalise, and a channels-first float32 layout.
//
// Parity: resizing, cropping and the float32 arithmetic reproduce Pillow and
// HuggingFace bit for bit on PNG input. JPEG decoding uses the standard
// library's entropy decoder and IDCT but libjpeg's "fancy" chroma upsampling
// and integer YCbCr→RGB tables, which brings decoded pixels within a few
// levels of Pillow's libjpeg-turbo; the package tests measure the difference.
//
// All functions are safe for concurrent use; nothing holds global mutable
// state.
package imageproc
