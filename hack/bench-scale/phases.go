package main

import (
	"context"
	"time"
)

// phases cuts the run into named phases: the counting proxy attributes each request to the
// phase it arrived in, the sampler gives each phase its CPU seconds, peak RSS and peak anonymous memory.
type phases struct {
	c  *counter
	ps *procSampler
	// meters are the other processes' CPU (and the machine's), each phase's share in CPUBy.
	meters []cpuMeter
	// api counts the API server's writes per phase; a phase whose counts could not be read
	// at its start prints "not measured" (nil: no meter).
	api   *apiWrites
	done  []phaseResult
	name  string
	start time.Time
	cpu0  float64
	by0   []float64
	api0  map[string]float64
}

// readMeters reads every meter now.
func readMeters(ms []cpuMeter) []float64 {
	v := make([]float64, len(ms))
	for i, m := range ms {
		v[i] = m.Read()
	}
	return v
}

// sinceMeters is what each meter counted since it read then.
func sinceMeters(ms []cpuMeter, then []float64) []namedCPU {
	out := make([]namedCPU, len(ms))
	for i, m := range ms {
		out[i] = namedCPU{Name: m.Name, Seconds: m.Read() - then[i]}
	}
	return out
}

// begin ends the current phase, if any, and starts phase name.
func (p *phases) begin(ctx context.Context, name string) {
	p.end(ctx)
	p.c.setPhase(name)
	p.name, p.start = name, time.Now()
	if p.ps != nil {
		p.cpu0 = p.ps.cpuSeconds()
		p.ps.takeMax()
	}
	p.by0 = readMeters(p.meters)
	p.api0 = p.api.read(ctx)
}

// end closes the current phase. Its request counts are read in results, at the end of the run,
// so that a response arriving after the phase ended still counts for the phase that sent it.
func (p *phases) end(ctx context.Context) {
	if p.name == "" {
		return
	}
	r := phaseResult{Name: p.name, From: p.start, To: time.Now()}
	r.Wall = r.To.Sub(r.From)
	if p.ps != nil {
		r.CPU = p.ps.cpuSeconds() - p.cpu0
		m := p.ps.takeMax()
		r.RSSMax, r.AnonMax = m.RSS, m.Anon
	}
	r.CPUBy = sinceMeters(p.meters, p.by0)
	if p.api0 != nil {
		r.APIWrites = apiWritesSince(p.api.read(ctx), p.api0)
	}
	p.done = append(p.done, r)
	p.name = ""
	p.c.setPhase("")
}

// results are the ended phases with their requests.
func (p *phases) results() []phaseResult {
	out := make([]phaseResult, len(p.done))
	for i, r := range p.done {
		r.Requests, r.Objects, r.Statuses = p.c.requests(r.Name), p.c.objects(r.Name), p.c.statuses(r.Name)
		r.Busy = p.c.busyFor(r.Name)
		out[i] = r
	}
	return out
}
