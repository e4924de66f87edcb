package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// floorResult is what the ratios divide by: ksfloor's workload create and delete wall times.
type floorResult struct {
	Create, Delete time.Duration
	Line           string
}

// runFloor runs ksfloor's workload phase (and only it: -c "" skips the projects-only phases,
// which no ratio uses) with 10 clients against Keystone directly, under its own name prefix so
// that its objects never meet the provider's. Its output goes to log as it comes.
func runFloor(ctx context.Context, bin, keystoneBase, password string, n int, prefix string, log io.Writer) (floorResult, error) {
	var out bytes.Buffer
	//nolint:gosec // G204: bin is the bench's own -ksfloor flag, its arguments the bench's settings
	cmd := exec.CommandContext(ctx, bin, "-url", keystoneBase, "-password", password, "-n", strconv.Itoa(n),
		"-c", "", "-workload-c", "10", "-prefix", prefix)
	cmd.Stdout = io.MultiWriter(&out, log)
	cmd.Stderr = log
	if err := cmd.Run(); err != nil {
		return floorResult{}, fmt.Errorf("ksfloor failed (its output is above): %w", err)
	}
	return parseFloor(out.String())
}

// parseFloor finds ksfloor's final "FLOOR k=v ..." line and reads the c=10 workload times.
func parseFloor(out string) (floorResult, error) {
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		rest, ok := strings.CutPrefix(line, "FLOOR ")
		if !ok {
			continue
		}
		r := floorResult{Line: line}
		for _, kv := range strings.Fields(rest) {
			k, v, _ := strings.Cut(kv, "=")
			var d *time.Duration
			switch k {
			case "workload_c10_create_s":
				d = &r.Create
			case "workload_c10_delete_s":
				d = &r.Delete
			default:
				continue
			}
			s, err := strconv.ParseFloat(v, 64)
			if err != nil {
				return floorResult{}, fmt.Errorf("ksfloor's %s is not a number: %q", k, v)
			}
			// ksfloor prints centiseconds: round, so that 32.80 is 32.8 s and not a nanosecond less.
			*d = time.Duration(math.Round(s*1000)) * time.Millisecond
		}
		if r.Create == 0 || r.Delete == 0 {
			return floorResult{}, fmt.Errorf("ksfloor's FLOOR line has no workload_c10_create_s or workload_c10_delete_s: %q", line)
		}
		return r, nil
	}
	return floorResult{}, fmt.Errorf("ksfloor printed no FLOOR line")
}
