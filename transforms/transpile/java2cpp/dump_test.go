package java2cpp

import (
	"os"
	"strings"
	"testing"
)

// TestDump prints the translation of the corpus problems named in J2C_DUMP (comma
// separated); a debugging aid that is skipped unless the variable is set.
func TestDump(t *testing.T) {
	ids := os.Getenv("J2C_DUMP")
	if ids == "" {
		t.Skip("set J2C_DUMP=<sample ids> to print translations")
	}
	for _, r := range loadGold(t) {
		for _, id := range strings.Split(ids, ",") {
			if r.ID == id {
				res, err := Translate(r.Java)
				t.Logf("%s\n--- java\n%s\n--- c++ (entry %s, err %v)\n%s", id, r.Java, res.Entry, err, res.Code)
			}
		}
	}
}
