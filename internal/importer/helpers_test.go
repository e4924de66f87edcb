package importer

import (
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"sigs.k8s.io/yaml"
)

func cmpEmpty() cmp.Option { return cmpopts.EquateEmpty() }

func yamlUnmarshal(b []byte, v any) error { return yaml.Unmarshal(b, v) }
