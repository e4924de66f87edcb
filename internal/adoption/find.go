package adoption

// FoundByKey turns the read of an object by a natural key that is also its ID (a mapping's
// ID, an application's slug) into a Driver's Find answer: the object, or none when the read
// says it does not exist; any other error is Find's.
func FoundByKey[O any](o O, err error, isNotFound func(error) bool) ([]O, error) {
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return []O{o}, nil
}
