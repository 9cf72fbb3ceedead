package corpus

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"gocloud.dev/blob"
)

// DefaultMaxLineBytes bounds a line of a JSONL corpus when Options does not: a
// problem of TransCoder-test or TRACE is a few KiB, and an unbounded line (a stream
// of zeros, a 50 MB line) would take the launcher's memory with it.
const DefaultMaxLineBytes = 16 << 20

// Options of reading a corpus.
type Options struct {
	// Limit stops a JSONL corpus after this many problems (0: all); its error rows
	// are then those of the lines before the last problem read.
	Limit int
	// MaxLineBytes bounds a line of a JSONL corpus (0: DefaultMaxLineBytes); a longer
	// line is an error row, and only its first bytes are held in memory.
	MaxLineBytes int
}

func (o Options) maxLine() int {
	if o.MaxLineBytes > 0 {
		return o.MaxLineBytes
	}
	return DefaultMaxLineBytes
}

// ErrLineTooLong is what EachLine's callback gets for a line beyond the maximum.
var ErrLineTooLong = errors.New("line too long")

// errStop ends a walk of the lines early: the caller has read enough.
var errStop = errors.New("stop")

// EachLine streams the lines of a text blob to fn (numbered from 1, without their
// terminators), holding at most max bytes of a line: a longer line is skipped to
// its end and given to fn as an ErrLineTooLong error. fn's error stops the walk
// and is returned.
func EachLine(ctx context.Context, b *blob.Bucket, key string, max int, fn func(n int, line []byte, tooLong error) error) error {
	r, err := b.NewReader(ctx, key, nil)
	if err != nil {
		return err
	}
	defer r.Close()
	return eachLine(r, max, false, fn)
}

// eachLine is EachLine on a reader; with stopLong, a line beyond max ends the walk
// at once with an ErrLineTooLong error, without reading the rest of it.
func eachLine(r io.Reader, max int, stopLong bool, fn func(n int, line []byte, tooLong error) error) error {
	br := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	n, size, over := 0, 0, false
	for {
		chunk, err := br.ReadSlice('\n')
		if len(chunk) > 0 {
			content := len(chunk)
			if err == nil {
				content-- // the newline
			}
			if !over && size+content > max {
				if stopLong {
					return fmt.Errorf("%w: line %d is longer than %d bytes", ErrLineTooLong, n+1, max)
				}
				over, line = true, line[:0]
			}
			size += len(chunk)
			if !over {
				line = append(line, chunk...)
			}
		}
		end := err == nil || (err == io.EOF && size > 0)
		if end {
			n++
			var ferr error
			if over {
				ferr = fn(n, nil, fmt.Errorf("%w: line %d is longer than %d bytes", ErrLineTooLong, n, max))
			} else {
				ferr = fn(n, bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r")), nil)
			}
			if ferr != nil {
				return ferr
			}
			line, size, over = line[:0], 0, false
		}
		switch {
		case err == nil || errors.Is(err, bufio.ErrBufferFull):
		case err == io.EOF:
			return nil
		default:
			return err
		}
	}
}

// CopyLines copies the stream src (a pipe, /dev/stdin, a process substitution:
// something that may be read once only) to the file dst, so that the run reads the
// copy. A line beyond max bytes ends the copy with an error, since a stream may
// never end it (/dev/zero); at most one line is held in memory.
func CopyLines(src io.Reader, dst io.Writer, max int) (lines int, err error) {
	w := bufio.NewWriterSize(dst, 64<<10)
	err = eachLine(src, max, true, func(n int, line []byte, _ error) error {
		lines = n
		w.Write(line)
		return w.WriteByte('\n')
	})
	if errors.Is(err, ErrLineTooLong) {
		return lines, fmt.Errorf("%w (the maximum line length: --max-line-bytes)", err)
	}
	if err != nil {
		return lines, err
	}
	return lines, w.Flush()
}
