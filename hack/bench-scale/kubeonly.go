package main

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// The apply and the delete run on the cores that Keystone uses too, and much of what else runs
// there is the API server's and etcd's work for every write of a resource, which any
// Kubernetes client causes. So before the provider starts, the bench applies and deletes the
// same manifest once with no provider running: the rows kapply and kdelete of the CPU table
// say what the control plane and kubectl cost by themselves, and the budget line what all the
// processes of each of the provider's phases needed of the machine's cores.

// kubeOnlyTimeout bounds the wait for the watches to see every resource made, or gone, after
// kubectl returned: seconds, nothing else running.
const kubeOnlyTimeout = 2 * time.Minute

// kubeOnly applies the workload's manifest and deletes it again, with no provider running,
// each as a row of its own (kapply, kdelete) before the provider's phases. No resource gets a
// finalizer without the provider, so the delete ends with kubectl's.
func (b *bench) kubeOnly(ctx context.Context) error {
	steps := []struct {
		name string
		args []string
		done func(census) bool
	}{
		{"kapply", []string{"apply", "-f", b.manifest}, func(c census) bool { return c.Total == b.r.Resources }},
		{"kdelete", []string{"delete", "--wait=false", "-f", b.teardown}, func(c census) bool { return c.Total == 0 }},
	}
	for _, s := range steps {
		row, err := b.kubeRow(ctx, s.name, s.args, s.done)
		if err != nil {
			return err
		}
		b.r.KubeOnly = append(b.r.KubeOnly, row)
	}
	return nil
}

// kubeRow runs kubectl with args and waits until done holds of the watches' census (a
// moment after kubectl returns): the row runs from kubectl's start until then.
func (b *bench) kubeRow(ctx context.Context, name string, args []string, done func(census) bool) (phaseResult, error) {
	t0, cpu0, api0 := time.Now(), readMeters(b.meters), b.api.read(ctx)
	if err := b.k.run(ctx, args...); err != nil {
		return phaseResult{}, err
	}
	row := phaseResult{Name: name, Before: true, From: t0}
	for !done(b.k.census()) {
		if time.Since(t0) > kubeOnlyTimeout {
			return row, fmt.Errorf("%s: the watches did not see what kubectl %s did within %s", name, args[0], kubeOnlyTimeout)
		}
		if err := sleep(ctx, lookEvery); err != nil {
			return row, err
		}
	}
	row.To, row.CPUBy = time.Now(), sinceMeters(b.meters, cpu0)
	row.Wall = row.To.Sub(t0)
	if api0 != nil {
		row.APIWrites = apiWritesSince(b.api.read(ctx), api0)
	}
	return row, nil
}

// kubeOnlyLine is the kapply and kdelete rows in a line: kubectl's time and what the machine
// spent meanwhile.
func (r result) kubeOnlyLine() string {
	if len(r.KubeOnly) == 0 {
		return "not measured"
	}
	parts := make([]string, 0, len(r.KubeOnly))
	for _, ph := range r.KubeOnly {
		cpu := "machine CPU not measured"
		if s, ok := phaseMachineCPU(ph); ok {
			cpu = fmt.Sprintf("machine %.1f CPU s", s)
		}
		parts = append(parts, fmt.Sprintf("kubectl %s -f %s (%s)", kubectlVerb[ph.Name], secs(ph.Wall), cpu))
	}
	return strings.Join(parts, ", ") + " of the same manifest with no provider running (rows kapply and kdelete below)"
}

// kubectlVerb is the kubectl command of each kube-only row.
var kubectlVerb = map[string]string{"kapply": "apply", "kdelete": "delete"}

// phaseMachineCPU is what the machine meter counted in ph, and whether it was measured.
func phaseMachineCPU(ph phaseResult) (float64, bool) {
	for _, c := range ph.CPUBy {
		if c.Name == machineMeter {
			return c.Seconds, true
		}
	}
	return 0, false
}

// budgetLine says, for the apply and the delete, how much CPU every process on the machine
// used, and so how soon that much work could have ended on the machine's cores in any order,
// beside the floor.
func (r result) budgetLine() string {
	floor := map[string]time.Duration{"apply": r.FloorCreate, "delete": r.FloorDelete}
	var parts []string
	for _, ph := range r.Phases {
		f, isBudgeted := floor[ph.Name]
		cpu, ok := phaseMachineCPU(ph)
		if !isBudgeted || !ok || r.Cores < 1 {
			continue
		}
		least := time.Duration(cpu / float64(r.Cores) * float64(time.Second))
		parts = append(parts, fmt.Sprintf("%s %.1f CPU s: not before %s in any order (floor %s)", ph.Name, cpu, secs(least), measured(f)))
	}
	if len(parts) == 0 {
		return "not measured"
	}
	return strings.Join(parts, "; ")
}
