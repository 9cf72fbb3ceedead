package corpus

import (
	"context"
	"fmt"
	"strings"
	"sync"

	sitter "github.com/tree-sitter/go-tree-sitter"
	tsgo "github.com/tree-sitter/tree-sitter-go/bindings/go"
	"gocloud.dev/blob"

	"transmute/schemas"
)

// GoScriptsOption is the transcoder: option naming a directory of TransCoder's Go test
// scripts (<id>.go: f_gold, a //TOFILL marker and a main calling both on the tests),
// such as gfg-extra/go: transcoder:DIR?go=GODIR.
const GoScriptsOption = "go"

var (
	goLangOnce sync.Once
	goLang     *sitter.Language
)

// GoGold reads the gold function of a TransCoder Go test script: f_gold with every
// top-level declaration of the script but main and f_filled (the scripts define
// helpers such as min, max and cmpfunc before f_gold), and the script's imports
// (the engine drops those the code does not use). The name is f_gold.
func GoGold(script string) (schemas.Function, error) {
	goLangOnce.Do(func() { goLang = sitter.NewLanguage(tsgo.Language()) })
	p := sitter.NewParser()
	defer p.Close()
	if err := p.SetLanguage(goLang); err != nil {
		return schemas.Function{}, fmt.Errorf("no Go grammar: %v", err)
	}
	src := []byte(script)
	tree := p.Parse(src, nil)
	if tree == nil {
		return schemas.Function{}, fmt.Errorf("not parsed")
	}
	defer tree.Close()
	root := tree.RootNode()
	var imports, decls []string
	sig := ""
	for i := uint(0); i < root.NamedChildCount(); i++ {
		n := root.NamedChild(i)
		text := n.Utf8Text(src)
		switch n.Kind() {
		case "import_declaration":
			imports = append(imports, text)
		case "function_declaration":
			name := ""
			if nm := n.ChildByFieldName("name"); nm != nil {
				name = nm.Utf8Text(src)
			}
			if name == "main" || name == "f_filled" {
				continue
			}
			if name == "f_gold" {
				body := n.ChildByFieldName("body")
				if body == nil {
					return schemas.Function{}, fmt.Errorf("f_gold has no body")
				}
				sig = strings.TrimSpace(string(src[n.StartByte():body.StartByte()]))
			}
			decls = append(decls, text)
		case "method_declaration", "type_declaration", "var_declaration", "const_declaration":
			decls = append(decls, text)
		}
	}
	if root.HasError() {
		return schemas.Function{}, fmt.Errorf("the script does not parse as Go")
	}
	if sig == "" {
		return schemas.Function{}, fmt.Errorf("no f_gold in the script")
	}
	return schemas.Function{Lang: schemas.Go, Name: "f_gold", Code: strings.Join(decls, "\n\n"),
		Signature: sig, Imports: strings.Join(imports, "\n")}, nil
}

// AddGoGolds gives each problem of c that has a Go script <id>.go in b its Go gold
// (GoGold), and the problem's tasks to and from Go. A script that cannot be read or
// whose gold cannot be found is an ingest error row; a problem without a script is
// left as it is.
func AddGoGolds(ctx context.Context, c *Corpus, b *blob.Bucket) error {
	keys, err := ListKeys(ctx, b, "", ".go")
	if err != nil {
		return fmt.Errorf("corpus: Go scripts: %w", err)
	}
	have := map[string]bool{}
	for _, k := range keys {
		have[k] = true
	}
	c.Tasks = c.Tasks[:0]
	for i := range c.Problems {
		p := &c.Problems[i]
		key := p.ID + ".go"
		if _, dup := p.Function(schemas.Go); !dup && have[key] {
			data, err := b.ReadAll(ctx, key)
			if err != nil {
				c.addError(p.ID, schemas.Go, "cannot read test script", fmt.Sprintf("%s: %v", key, err))
			} else if f, err := GoGold(string(data)); err != nil {
				c.addError(p.ID, schemas.Go, "cannot find the gold function's name", err.Error())
			} else {
				p.Functions = append(p.Functions, f)
			}
		}
		c.Tasks = append(c.Tasks, tasksFor(p)...)
	}
	return nil
}
