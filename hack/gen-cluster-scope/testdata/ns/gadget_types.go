package v1alpha1

// GadgetParameters have no references.
type GadgetParameters struct {
	Name string `json:"name"`
}
