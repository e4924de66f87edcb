package main

import (
	"testing"
	"time"
)

// TestKubeOnlyAndBudgetLines: the kube-only line gives kubectl's time and the machine's CPU
// of each row; the budget line divides each measured phase's machine CPU by the cores, beside
// its floor, and says "not measured" for what was not.
func TestKubeOnlyAndBudgetLines(t *testing.T) {
	machine := func(s float64) []namedCPU {
		return []namedCPU{{Name: "keystone", Seconds: 1}, {Name: machineMeter, Seconds: s}}
	}
	r := result{Cores: 2, FloorCreate: 35 * time.Second, FloorDelete: 50 * time.Second,
		KubeOnly: []phaseResult{
			{Name: "kapply", Wall: 8300 * time.Millisecond, CPUBy: machine(12.04)},
			{Name: "kdelete", Wall: 4 * time.Second},
		},
		Phases: []phaseResult{
			{Name: "apply", CPUBy: machine(120.5)},
			{Name: "steady", CPUBy: machine(17)},
			{Name: "delete", CPUBy: machine(113.6)},
		},
	}
	for _, tc := range []struct{ name, got, want string }{
		{"kube only", r.kubeOnlyLine(), "kubectl apply -f 8.3 s (machine 12.0 CPU s), kubectl delete -f 4.0 s (machine CPU not measured) of the same manifest with no provider running (rows kapply and kdelete below)"},
		{"budget", r.budgetLine(), "apply 120.5 CPU s: not before 60.2 s in any order (floor 35.0 s); delete 113.6 CPU s: not before 56.8 s in any order (floor 50.0 s)"},
		{"kube only, not run", result{}.kubeOnlyLine(), "not measured"},
		{"budget, no meters", result{Cores: 2, Phases: []phaseResult{{Name: "apply"}}}.budgetLine(), "not measured"},
		{"budget, floor skipped", result{Cores: 2, Phases: []phaseResult{{Name: "apply", CPUBy: machine(10)}}}.budgetLine(), "apply 10.0 CPU s: not before 5.0 s in any order (floor not measured)"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.name, tc.got, tc.want)
		}
	}
}
