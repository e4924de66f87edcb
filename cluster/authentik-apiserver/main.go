// Command authentik-apiserver serves the in-memory authentik API stand-in
// (internal/authentikapiserver) for e2e runs on machines where authentik
// cannot run. It is test tooling and is not part of the provider image.
//
//	authentik-apiserver --listen=127.0.0.1:0 --token=secret --env-file=/tmp/authentik.env
//
// prints AUTHENTIK_URL=http://127.0.0.1:PORT on stdout once it accepts
// connections; the env file gets AUTHENTIK_URL and AUTHENTIK_TOKEN. Contract
// violations are logged to stderr and listed at GET /_test/violations.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/crossplane-contrib/provider-identity/internal/authentikapiserver"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "address to listen on; port 0 picks a free one")
	token := flag.String("token", authentikapiserver.DefaultToken, "API token clients must send as 'Authorization: Bearer <token>'")
	openapi := flag.String("openapi", "", "authentik openapi.yaml (default: api/openapi.yaml of the goauthentik.io/api/v3 module in go.mod; env "+authentikapiserver.EnvOpenAPIPath+")")
	envFile := flag.String("env-file", "", "also write AUTHENTIK_URL and AUTHENTIK_TOKEN to this file")
	flag.Parse()

	logger := log.New(os.Stderr, "authentik-apiserver: ", log.LstdFlags)
	s, err := authentikapiserver.New(authentikapiserver.Options{Token: *token, OpenAPIPath: *openapi, Logf: logger.Printf})
	if err != nil {
		logger.Fatal(err)
	}
	url, stop, err := s.Listen(*listen)
	if err != nil {
		logger.Fatal(err)
	}
	if *envFile != "" {
		content := fmt.Sprintf("AUTHENTIK_URL=%s\nAUTHENTIK_TOKEN=%s\n", url, s.Token())
		tmp := *envFile + ".tmp"
		// Written then renamed so a watcher never reads a half-written file.
		if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
			logger.Fatal(err)
		}
		if err := os.Rename(tmp, filepath.Clean(*envFile)); err != nil {
			logger.Fatal(err)
		}
	}
	fmt.Printf("AUTHENTIK_URL=%s\n", url)

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	if n := len(s.Violations()); n > 0 {
		logger.Printf("%d contract violation(s) recorded", n)
	}
	_ = stop()
}
