package main

import (
	"fmt"
	"io"
)

// errWriter remembers the first error of its writer and writes nothing after it, so that a
// sequence of prints (the summary, the progress log) is checked once, at its end, through err.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(b []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(b)
	e.err = err
	return n, err
}

// printf formats to the writer; its error is the one kept in err.
func (e *errWriter) printf(format string, a ...any) {
	_, _ = fmt.Fprintf(e, format, a...)
}
