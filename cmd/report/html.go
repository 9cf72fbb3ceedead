package main

import (
	"bytes"
	"context"
	"fmt"

	"gocloud.dev/blob"

	"transmute/report"
)

// htmlReport writes OUT/report/index.html from the run's tables and manifest.
func htmlReport(ctx context.Context, b *blob.Bucket, out string) error {
	r, err := report.Load(ctx, b)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := report.Write(&buf, r); err != nil {
		return err
	}
	if err := b.WriteAll(ctx, "report/index.html", buf.Bytes(), &blob.WriterOptions{ContentType: "text/html; charset=utf-8"}); err != nil {
		return err
	}
	fmt.Printf("%s/report/index.html (%d KB; sections: %v)\n", out, buf.Len()/1024, report.Sections(r))
	return nil
}
