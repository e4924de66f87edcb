package importer

import (
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

func cmpEmpty() cmp.Option { return cmpopts.EquateEmpty() }
