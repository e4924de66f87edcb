package testdata

import "testing"

func TestMain(m *testing.M) { m.Run() }

func TestSerial(t *testing.T) { t.Log("counts every request") }

func TestParallel(t *testing.T) {
	t.Parallel()
}

func TestParallelLater(t *testing.T) {
	if true {
		t.Parallel()
	}
}

func TestAnotherSerial(t *testing.T) {}

func BenchmarkX(b *testing.B) {}

func helper(t *testing.T) {}
