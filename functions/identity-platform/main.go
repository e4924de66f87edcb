// Command function-identity-platform is the Crossplane composition function of the
// platform.identity.crossplane.io Compositions: it holds a ServiceClaim back until its Tenant is
// Ready (TenantReady), composes a KeystoneIdentityBackend's objects from the provider's typed
// APIs (namespaced kinds) and reports the backend's conditions, and maps a composite's
// deletionPolicy onto its composed resources' management policies.
package main

import (
	"flag"
	"fmt"
	"os"

	function "github.com/crossplane/function-sdk-go"
)

func main() {
	debug := flag.Bool("debug", false, "Emit debug logs in addition to info logs.")
	network := flag.String("network", "tcp", "Network on which to listen for gRPC connections.")
	address := flag.String("address", ":9443", "Address at which to listen for gRPC connections.")
	certs := flag.String("tls-certs-dir", os.Getenv("TLS_SERVER_CERTS_DIR"),
		"Directory with the server certificate (tls.crt, tls.key) and the CA of client certificates (ca.crt).")
	insecure := flag.Bool("insecure", false, "Serve without mTLS (local development and crossplane render only).")
	// The SDK serves metrics on :8080 unless told otherwise, and ignores a failure to listen: a
	// flag lets local runs move it off a port the provider or anything else may want, or turn
	// it off.
	metrics := flag.String("metrics-address", function.DefaultMetricsAddress,
		"Address at which to serve Prometheus metrics; empty turns the metrics server off.")
	flag.Parse()

	log, err := function.NewLogger(*debug)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := function.Serve(&Function{log: log},
		function.Listen(*network, *address),
		function.MTLSCertificates(*certs),
		function.Insecure(*insecure),
		function.WithMetricsServer(*metrics)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
