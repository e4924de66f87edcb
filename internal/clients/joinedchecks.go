package clients

import "context"

// JoinedChecks answers whether objects of one scope exist, each with a read that started after
// the question was asked (see JoinedLists). It is for the check right before a write that
// cannot tell an object it makes from one that already existed: Keystone's PUT of a role
// assignment answers 204 either way. A lone check reads its object alone (one HEAD); checks
// that wait together share one list of the scope.
//
// The zero JoinedChecks is ready to use once NotFound is set.
type JoinedChecks[T any] struct {
	// NotFound tells the error of Source.Get that says the object does not exist.
	NotFound func(error) bool

	JoinedLists[T]
}

// Exists reports whether object id of scope s exists, by a read that started after this call:
// src.Get alone, or src.List shared with the other checks of s waiting at the same time.
func (j *JoinedChecks[T]) Exists(ctx context.Context, s Scope, id string, src Source[T]) (bool, error) {
	rows, err := j.Rows(ctx, s, id, Rows[T]{
		Alone: func(ctx context.Context) ([]T, error) {
			v, err := src.Get(ctx)
			if ok, err := Exists(err, j.NotFound); !ok {
				return nil, err
			}
			return []T{v}, nil
		},
		List:    src.List,
		Keys:    func(v T) []string { return []string{src.ID(v)} },
		Refused: src.Refused,
	})
	return len(rows) > 0, err
}

// Exists reads the outcome of a single read as whether its object exists: yes without an
// error, no with one that notFound tells, and any other error as the read's failure.
func Exists(err error, notFound func(error) bool) (bool, error) {
	switch {
	case err == nil:
		return true, nil
	case notFound(err):
		return false, nil
	default:
		return false, err
	}
}
