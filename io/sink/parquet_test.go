package sink

import (
	"context"
	"reflect"
	"testing"

	"gocloud.dev/blob/memblob"

	"transmute/schemas"
)

func TestRoundTripAndIdempotence(t *testing.T) {
	ctx := context.Background()
	b := memblob.OpenBucket(nil)
	defer b.Close()
	rows := []schemas.ScoreRow{
		{Run: "r", Translator: "gpt", SrcLang: "java", TgtLang: "python", Metric: "pass_rate", Value: 0.9, N: 10},
		{Run: "r", Translator: "gpt", SrcLang: "java", TgtLang: "cpp", Metric: "ca_overall", Value: 0.5, N: 100},
	}
	k1, err := WriteShard(ctx, b, "scores", rows)
	if err != nil {
		t.Fatal(err)
	}
	// A retried bundle writes the same rows: same key, no duplicate.
	k2, err := WriteShard(ctx, b, "scores", rows)
	if err != nil {
		t.Fatal(err)
	}
	if k1 != k2 {
		t.Fatalf("retry wrote a second shard: %s vs %s", k1, k2)
	}
	got, err := Read[schemas.ScoreRow](ctx, b, "scores")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, rows) {
		t.Fatalf("round trip: got %+v", got)
	}
	// no temporary file left behind
	it := b.List(nil)
	for {
		obj, err := it.Next(ctx)
		if err != nil {
			break
		}
		if obj.Key != k1 {
			t.Errorf("unexpected object %s", obj.Key)
		}
	}
}

func TestNestedProblemRoundTrip(t *testing.T) {
	ctx := context.Background()
	b := memblob.OpenBucket(nil)
	defer b.Close()
	p := []schemas.Problem{{ID: "P", Corpus: "jsonl", Returns: "int",
		Params:    []schemas.Param{{Name: "a", Type: "int[]"}, {Name: "n", Type: "int"}},
		Functions: []schemas.Function{{Lang: "java", Name: "f", Code: "static int f(int[] a, int n){return n;}"}},
		Tests:     []schemas.Test{{Index: 0, Args: "[[1,2],2]"}, {Index: 1, Args: "[[],0]", LangDependent: true, DependCause: "integer_overflow"}}}}
	if _, err := WriteShard(ctx, b, "problems", p); err != nil {
		t.Fatal(err)
	}
	got, err := Read[schemas.Problem](ctx, b, "problems")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, p) {
		t.Fatalf("round trip: got %+v", got)
	}
}
