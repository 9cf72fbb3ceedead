package schemas

import "testing"

// Every value parses back from its String, and a misspelling is refused.
func TestVocabularyParse(t *testing.T) {
	for _, s := range TranslationStatuses {
		if got, err := ParseTranslationStatus(s.String()); err != nil || got != s {
			t.Errorf("ParseTranslationStatus(%q) = %q, %v", s, got, err)
		}
	}
	for _, r := range Roles {
		if got, err := ParseRole(r.String()); err != nil || got != r {
			t.Errorf("ParseRole(%q) = %q, %v", r, got, err)
		}
	}
	for _, s := range Stages {
		if got, err := ParseStage(s.String()); err != nil || got != s {
			t.Errorf("ParseStage(%q) = %q, %v", s, got, err)
		}
	}
	if _, err := ParseTranslationStatus("OK"); err == nil {
		t.Error("ParseTranslationStatus accepted OK")
	}
	if _, err := ParseRole("ground truth"); err == nil {
		t.Error("ParseRole accepted a misspelt role")
	}
	if _, err := ParseStage(""); err == nil {
		t.Error("ParseStage accepted the empty stage")
	}
}

func TestDirections(t *testing.T) {
	ds, err := ParseDirections("java-python, cpp-cpp")
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 || ds[0] != (Direction{Java, Python}) || ds[1].String() != "cpp-cpp" {
		t.Errorf("ParseDirections = %v", ds)
	}
	if ds, err := ParseDirections("all"); ds != nil || err != nil {
		t.Errorf("all = %v, %v", ds, err)
	}
	for _, bad := range []string{"java", "java-", "-python", "java-python,"} {
		if _, err := ParseDirections(bad); err == nil {
			t.Errorf("ParseDirections(%q) accepted", bad)
		}
	}
	if !(Direction{"cpp", "python"}).Less(Direction{"java", "cpp"}) || (Direction{"java", "python"}).Less(Direction{"java", "cpp"}) {
		t.Error("Less does not order by source, then target")
	}
}
