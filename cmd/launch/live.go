package main

import (
	"context"
	"flag"
	"fmt"
	"net"
	"time"

	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/runtime/metricsx"
	jobpb "github.com/apache/beam/sdks/v2/go/pkg/beam/model/jobmanagement_v1"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"

	"transmute/internal/progress"
)

// Live progress from Beam metrics. In process, launch starts Prism's job service
// itself (what the prism runner does when no endpoint is given) on a port it knows,
// so it can poll the running job's metrics as a remote launcher would poll a job
// server. Prism reports a counter's committed value when a bundle finishes, so the
// line advances bundle by bundle (its in-progress values are the last report of
// one bundle per transform, not a sum over concurrent bundles: they are not used).

// startJobServer starts Prism's job service in this process and points the runner
// at it (loopback workers, as the in-process default).
func startJobServer(ctx context.Context) (jobpb.JobServiceClient, error) {
	l, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		return nil, err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cli, err := prism.CreateJobServer(ctx, prism.Options{Port: port})
	if err != nil {
		return nil, err
	}
	if err := flag.Set("endpoint", fmt.Sprintf("localhost:%d", port)); err != nil {
		return nil, err
	}
	if f := flag.Lookup("environment_type"); f != nil && f.Value.String() == "" {
		if err := flag.Set("environment_type", "loopback"); err != nil {
			return nil, err
		}
	}
	return cli, nil
}

// jobCounters sums the committed transmute counters of the running jobs.
func jobCounters(ctx context.Context, cli jobpb.JobServiceClient) (map[string]int64, error) {
	jobs, err := cli.GetJobs(ctx, &jobpb.GetJobsRequest{})
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, j := range jobs.GetJobInfo() {
		if j.GetState() != jobpb.JobState_RUNNING {
			continue
		}
		m, err := cli.GetJobMetrics(ctx, &jobpb.GetJobMetricsRequest{JobId: j.GetJobId()})
		if err != nil {
			return nil, err
		}
		res := metricsx.FromMonitoringInfos(nil, m.GetMetrics().GetAttempted(), m.GetMetrics().GetCommitted())
		for _, c := range res.AllMetrics().Counters() {
			if c.Namespace() == "transmute" {
				out[c.Name()] += c.Committed
			}
		}
	}
	return out, nil
}

// pollProgress drives meter from the job's counters (done: the counter done, total:
// the counter total) every interval until the returned stop is called.
func pollProgress(ctx context.Context, cli jobpb.JobServiceClient, meter *progress.Meter, done, total string, every time.Duration) (stop func()) {
	ctx, cancel := context.WithCancel(ctx)
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var lastDone, lastTotal int64
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			cs, err := jobCounters(ctx, cli)
			if err != nil {
				continue // the job may not be submitted yet, or be finishing
			}
			if d := cs[total] - lastTotal; d > 0 {
				meter.AddTotal(d)
				lastTotal = cs[total]
			}
			if d := cs[done] - lastDone; d > 0 {
				meter.Done(d)
				lastDone = cs[done]
			}
		}
	}()
	return func() {
		cancel()
		<-finished
		meter.Finish()
	}
}
