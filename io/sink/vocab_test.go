package sink

import (
	"context"
	"reflect"
	"testing"

	"gocloud.dev/blob"
	"gocloud.dev/blob/memblob"

	"transmute/schemas"
)

// The typed vocabulary (schemas.TranslationStatus, Role, Stage) writes the same
// Parquet string columns as the plain strings the rows held before: a reader with
// string fields under the same tags reads the values back as they were spelt.
func TestVocabularyColumnsAreStrings(t *testing.T) {
	ctx := context.Background()
	b := memblob.OpenBucket(nil)
	defer b.Close()

	if _, err := WriteShard(ctx, b, "translations", []schemas.TranslationRow{
		{Run: "r", VariantID: schemas.VariantOrig, Status: schemas.TranslationOK},
		{Run: "r", VariantID: "m1", Status: schemas.TranslationUnsupported},
	}); err != nil {
		t.Fatal(err)
	}
	type translationCols struct {
		VariantID string `parquet:"variant_id,dict"`
		Status    string `parquet:"status,dict"`
	}
	checkRead(ctx, t, b, "translations", []translationCols{{"orig", "ok"}, {"m1", "unsupported"}})

	if _, err := WriteShard(ctx, b, "executions", []schemas.ExecutionRow{
		{Run: "r", Role: schemas.RoleGold}, {Run: "r", Role: schemas.RoleTranslation}, {Run: "r", Role: schemas.RoleMutant},
	}); err != nil {
		t.Fatal(err)
	}
	type executionCols struct {
		Role string `parquet:"role,dict"`
	}
	checkRead(ctx, t, b, "executions", []executionCols{{"gold"}, {"translation"}, {"mutant"}})

	if _, err := WriteShard(ctx, b, "profiles", []schemas.ProfileRow{{Run: "r", Role: schemas.RoleGroundTruth}}); err != nil {
		t.Fatal(err)
	}
	checkRead(ctx, t, b, "profiles", []executionCols{{"ground_truth"}})

	if _, err := WriteShard(ctx, b, "errors", []schemas.ErrorRow{{Run: "r", Stage: schemas.StageMBTA}, {Run: "r", Stage: schemas.StagePropertySearch}}); err != nil {
		t.Fatal(err)
	}
	type errorCols struct {
		Stage string `parquet:"stage,dict"`
	}
	checkRead(ctx, t, b, "errors", []errorCols{{"mbta"}, {"property_search"}})
}

func checkRead[T any](ctx context.Context, t *testing.T, b *blob.Bucket, table string, want []T) {
	t.Helper()
	got, err := Read[T](ctx, b, table)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: read %+v, want %+v", table, got, want)
	}
}
