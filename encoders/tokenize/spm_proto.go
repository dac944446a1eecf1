package tokenize

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Piece types of sentencepiece's ModelProto.SentencePiece.Type.
const (
	pieceNormal      = 1
	pieceUnknown     = 2
	pieceControl     = 3
	pieceUserDefined = 4
	pieceUnused      = 5
	pieceByte        = 6
)

// spmPiece is one ModelProto.SentencePiece.
type spmPiece struct {
	text  string
	score float32
	typ   int
}

// spmModel holds the parts of a sentencepiece ModelProto the encoder needs.
type spmModel struct {
	pieces []spmPiece
	// TrainerSpec
	modelType    int // 1 unigram, 2 BPE, 3 word, 4 char
	byteFallback bool
	// NormalizerSpec
	normName              string
	charsmap              []byte
	addDummyPrefix        bool
	removeExtraWhitespace bool
	escapeWhitespace      bool
	hasNormalizationRules bool
}

// maxSPMPieces bounds the number of pieces a model may declare.
const maxSPMPieces = 1 << 21

// parseSPMModel reads a serialized sentencepiece ModelProto with a minimal
// protobuf wire-format reader (fields 1 pieces, 2 trainer_spec, 3
// normalizer_spec; the rest is skipped).
func parseSPMModel(data []byte) (*spmModel, error) {
	m := &spmModel{modelType: 1, addDummyPrefix: true, removeExtraWhitespace: true, escapeWhitespace: true}
	err := eachField(data, func(num int, wire int, v uint64, b []byte) error {
		switch {
		case num == 1 && wire == 2:
			if len(m.pieces) >= maxSPMPieces {
				return fmt.Errorf("more than %d pieces", maxSPMPieces)
			}
			p, err := parseSPMPiece(b)
			if err != nil {
				return fmt.Errorf("piece %d: %w", len(m.pieces), err)
			}
			m.pieces = append(m.pieces, p)
		case num == 2 && wire == 2:
			return eachField(b, func(num, wire int, v uint64, _ []byte) error {
				switch {
				case num == 3 && wire == 0:
					m.modelType = int(v)
				case num == 35 && wire == 0:
					m.byteFallback = v != 0
				}
				return nil
			})
		case num == 3 && wire == 2:
			return eachField(b, func(num, wire int, v uint64, b []byte) error {
				switch {
				case num == 1 && wire == 2:
					m.normName = string(b)
				case num == 2 && wire == 2:
					m.charsmap = append([]byte(nil), b...)
				case num == 3 && wire == 0:
					m.addDummyPrefix = v != 0
				case num == 4 && wire == 0:
					m.removeExtraWhitespace = v != 0
				case num == 5 && wire == 0:
					m.escapeWhitespace = v != 0
				case num == 6 && wire == 2:
					m.hasNormalizationRules = len(b) > 0
				}
				return nil
			})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(m.pieces) == 0 {
		return nil, errors.New("model has no pieces")
	}
	return m, nil
}

func parseSPMPiece(b []byte) (spmPiece, error) {
	p := spmPiece{typ: pieceNormal}
	err := eachField(b, func(num, wire int, v uint64, b []byte) error {
		switch {
		case num == 1 && wire == 2:
			p.text = string(b)
		case num == 2 && wire == 5:
			p.score = math.Float32frombits(uint32(v))
		case num == 3 && wire == 0:
			p.typ = int(v)
		}
		return nil
	})
	if err == nil && (p.typ < pieceNormal || p.typ > pieceByte) {
		err = fmt.Errorf("piece %q has unknown type %d", p.text, p.typ)
	}
	return p, err
}

// eachField calls fn for every field of a protobuf message: v holds varint
// and fixed-width values, b the bytes of length-delimited ones.
func eachField(data []byte, fn func(num, wire int, v uint64, b []byte) error) error {
	for len(data) > 0 {
		key, n := binary.Uvarint(data)
		if n <= 0 {
			return errors.New("protobuf: bad field key")
		}
		data = data[n:]
		num, wire := int(key>>3), int(key&7)
		var v uint64
		var b []byte
		switch wire {
		case 0:
			v, n = binary.Uvarint(data)
			if n <= 0 {
				return fmt.Errorf("protobuf: bad varint in field %d", num)
			}
			data = data[n:]
		case 1:
			if len(data) < 8 {
				return fmt.Errorf("protobuf: truncated field %d", num)
			}
			v, data = binary.LittleEndian.Uint64(data), data[8:]
		case 2:
			l, n := binary.Uvarint(data)
			if n <= 0 || l > uint64(len(data)-n) {
				return fmt.Errorf("protobuf: bad length in field %d", num)
			}
			b, data = data[n:n+int(l)], data[n+int(l):]
		case 5:
			if len(data) < 4 {
				return fmt.Errorf("protobuf: truncated field %d", num)
			}
			v, data = uint64(binary.LittleEndian.Uint32(data)), data[4:]
		default:
			return fmt.Errorf("protobuf: unsupported wire type %d in field %d", wire, num)
		}
		if err := fn(num, wire, v, b); err != nil {
			return err
		}
	}
	return nil
}
