package authentikapiserver

// allKinds lists every modelled resource family. Order matters only for
// Seed's error message listing.
func allKinds() []*kind {
	kinds := []*kind{applicationKind()}
	kinds = append(kinds, providerKinds()...)
	kinds = append(kinds, stageKinds()...)
	kinds = append(kinds, policyKinds()...)
	return append(kinds, groupKind(), userKind(), roleKind(), flowKind(), certKind(), scopeMappingKind(), samlMappingKind(),
		policyBindingKind(), tokenKind(), entitlementKind(), flowBindingKind(), brandKind(), outpostKind())
}

// extraOps registers the operations that are not plain CRUD.
func extraOps(ops map[string]handler, kinds []*kind) {
	providersAllOps(ops, kinds)
	stagesAllOps(ops, kinds)
	policiesAllOps(ops, kinds)
	groupMemberOps(ops)
	ops["core_users_set_password_create"] = setPassword
	ops["core_users_me_retrieve"] = usersMe
	ops["providers_saml_metadata_retrieve"] = samlMetadata
	cryptoOps(ops)
	tokenOps(ops)
	outpostOps(ops)
}

func (s *Server) kindNamed(path string) *kind {
	for _, k := range s.kinds {
		if k.path == path {
			return k
		}
	}
	panic("authentikapiserver: no kind " + path)
}
