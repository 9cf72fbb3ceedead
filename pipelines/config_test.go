package pipelines

import (
	"strings"
	"testing"
	"time"
)

// A config file's durations are Go duration strings; a bare number (which plain
// JSON decoding takes as nanoseconds) is refused naming its field.
func TestParseConfigDurations(t *testing.T) {
	c, err := ParseConfig([]byte(`{"cpu_time": "10s", "wall_time": "1m30s", "memory_bytes": 268435456}`))
	if err != nil {
		t.Fatal(err)
	}
	if c.CPUTime != 10*time.Second || c.WallTime != 90*time.Second || c.MemoryBytes != 256<<20 {
		t.Errorf("parsed %v %v %d", c.CPUTime, c.WallTime, c.MemoryBytes)
	}
	for _, tc := range []struct{ json, want string }{
		{`{"cpu_time": 10}`, "cpu_time"},
		{`{"wall_time": 20000000000}`, "wall_time"},
		{`{"wall_time": "20 seconds"}`, "wall_time"},
		{`{"cpu_time": "10s", "cpu_tme": "1s"}`, "cpu_tme"},
		{`{"run": "a"} {"run": "b"}`, "more than one"},
	} {
		_, err := ParseConfig([]byte(tc.json))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error naming %q", tc.json, err, tc.want)
		}
	}
}

// Limits below the floors are refused; zero means the default and is accepted.
func TestValidateLimitFloors(t *testing.T) {
	ok := Config{CPUTime: MinTimeLimit, WallTime: time.Second, MemoryBytes: MinMemoryBytes}
	if err := ok.ValidateSettings(); err != nil {
		t.Errorf("limits at the floors: %v", err)
	}
	if err := (Config{}).ValidateSettings(); err != nil {
		t.Errorf("default limits: %v", err)
	}
	for _, tc := range []struct {
		c    Config
		want string
	}{
		{Config{WallTime: time.Nanosecond}, "wall_time"},
		{Config{CPUTime: 9 * time.Millisecond}, "cpu_time"},
		{Config{MemoryBytes: 1024}, "memory_bytes"},
	} {
		err := tc.c.ValidateSettings()
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "floor") {
			t.Errorf("%+v: got %v, want a floor error naming %s", tc.c, err, tc.want)
		}
	}
}
