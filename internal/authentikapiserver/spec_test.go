package authentikapiserver

import (
	"os/exec"
	"strings"
	"testing"
)

// APIVersion is only a fallback, but it must name the version go.mod pins.
func TestAPIVersionMatchesGoMod(t *testing.T) {
	out, err := exec.CommandContext(t.Context(), "go", "list", "-m", "-f", "{{.Version}}", APIModule).Output()
	if err != nil {
		t.Fatalf("go list -m %s: %v", APIModule, err)
	}
	if got := strings.TrimSpace(string(out)); got != APIVersion {
		t.Errorf("go.mod pins %s %s, APIVersion is %s", APIModule, got, APIVersion)
	}
}
