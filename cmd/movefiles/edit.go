package main

import (
	"fmt"
	"go/ast"
	"go/format"
	"go/token"
	"path"
	"sort"
	"strconv"
	"strings"
)

// edit replaces src[start:end] with text; end == start is an insertion.
// Insertions at one offset are applied in prio order, before a
// replacement starting there.
type edit struct {
	start, end int
	text       string
	prio       int
}

// fileEdit is one file being rewritten: its original bytes and edits.
type fileEdit struct {
	path    string // where it is read from
	outPath string // where it is written ("" = path)
	src     []byte
	tf      *token.File
	file    *ast.File
	edits   []edit
	idents  map[int]bool // offsets of identifiers already replaced
	changed bool
}

func (fe *fileEdit) off(p token.Pos) int { return fe.tf.Offset(p) }

func (fe *fileEdit) add(start, end token.Pos, text string, prio int) {
	fe.edits = append(fe.edits, edit{fe.off(start), fe.off(end), text, prio})
	fe.changed = true
}

// replaceIdent replaces one identifier once (a second request for the
// same identifier is ignored: renames and qualification compute the
// whole replacement).
func (fe *fileEdit) replaceIdent(id *ast.Ident, text string) {
	if text == id.Name || fe.idents[fe.off(id.Pos())] {
		return
	}
	fe.idents[fe.off(id.Pos())] = true
	fe.add(id.Pos(), id.End(), text, 0)
}

// apply returns the edited, gofmt-formatted source.
func (fe *fileEdit) apply() ([]byte, error) {
	es := append([]edit(nil), fe.edits...)
	sort.SliceStable(es, func(i, j int) bool {
		a, b := es[i], es[j]
		if a.start != b.start {
			return a.start < b.start
		}
		ai, bi := a.end == a.start, b.end == b.start
		if ai != bi {
			return ai // insertions first
		}
		return a.prio < b.prio
	})
	var out []byte
	cur := 0
	for _, e := range es {
		if e.start < cur {
			return nil, fmt.Errorf("%s: overlapping edits at offset %d (internal error)", fe.path, e.start)
		}
		out = append(out, fe.src[cur:e.start]...)
		out = append(out, e.text...)
		cur = e.end
	}
	out = append(out, fe.src[cur:]...)
	res, err := format.Source(out)
	if err != nil {
		return nil, fmt.Errorf("%s: rewritten source does not parse (internal error): %v\n%s", fe.path, err, out)
	}
	return res, nil
}

// importName is the name a file uses for the import of path ("" when
// the file does not import it).
func importName(f *ast.File, importPath, pkgName string) (string, *ast.ImportSpec) {
	for _, s := range f.Imports {
		p, _ := strconv.Unquote(s.Path.Value)
		if p != importPath {
			continue
		}
		if s.Name != nil {
			return s.Name.Name, s
		}
		return pkgName, s
	}
	return "", nil
}

// addImport adds `name "importPath"` to the file's imports.
func (fe *fileEdit) addImport(importPath, name string) {
	spec := strconv.Quote(importPath)
	if name != path.Base(importPath) {
		spec = name + " " + spec
	}
	var cgo *ast.GenDecl
	for _, d := range fe.file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		if importsC(gd) {
			cgo = gd // import "C" keeps its preamble: never add to it
			continue
		}
		if gd.Lparen.IsValid() {
			if last, _ := strconv.Unquote(gd.Specs[len(gd.Specs)-1].(*ast.ImportSpec).Path.Value); !strings.Contains(strings.Split(last, "/")[0], ".") {
				fe.add(gd.Rparen, gd.Rparen, "\n\t"+spec+"\n", 0) // own group after the standard library
			} else if fe.tf.Position(gd.Rparen).Column == 1 {
				fe.add(gd.Rparen, gd.Rparen, "\t"+spec+"\n", 0)
			} else {
				fe.add(gd.Rparen, gd.Rparen, "\n\t"+spec+"\n", 0)
			}
		} else {
			// import "x" becomes a block.
			sep := "\n"
			if last, _ := strconv.Unquote(gd.Specs[0].(*ast.ImportSpec).Path.Value); !strings.Contains(strings.Split(last, "/")[0], ".") {
				sep = "\n\n"
			}
			fe.add(gd.Specs[0].Pos(), gd.Specs[0].Pos(), "(\n\t", 0)
			fe.add(gd.End(), gd.End(), sep+"\t"+spec+"\n)", 0)
		}
		return
	}
	if cgo != nil {
		fe.add(cgo.End(), cgo.End(), "\n\nimport "+spec+"\n", 0)
		return
	}
	fe.add(fe.file.Name.End(), fe.file.Name.End(), "\n\nimport "+spec+"\n", 0)
}

func importsC(gd *ast.GenDecl) bool {
	for _, s := range gd.Specs {
		if s.(*ast.ImportSpec).Path.Value == `"C"` {
			return true
		}
	}
	return false
}

// removeImport deletes an import spec (its whole line, or the whole
// declaration when it is the only spec).
func (fe *fileEdit) removeImport(s *ast.ImportSpec) {
	for _, d := range fe.file.Decls {
		gd, ok := d.(*ast.GenDecl)
		if !ok || gd.Tok != token.IMPORT {
			continue
		}
		for _, sp := range gd.Specs {
			if sp != s {
				continue
			}
			if len(gd.Specs) == 1 {
				start := gd.Pos()
				if gd.Doc != nil {
					start = gd.Doc.Pos()
				}
				fe.add(start, gd.End(), "", 0)
				return
			}
			start := fe.off(s.Pos())
			if s.Doc != nil {
				start = fe.off(s.Doc.Pos())
			}
			for start > 0 && (fe.src[start-1] == ' ' || fe.src[start-1] == '\t') {
				start--
			}
			end := fe.off(s.End())
			if s.Comment != nil {
				end = fe.off(s.Comment.End())
			}
			if i := strings.IndexByte(string(fe.src[end:]), '\n'); i >= 0 {
				rest := strings.TrimSpace(string(fe.src[end : end+i]))
				if rest == "" {
					end += i + 1
				}
			}
			fe.edits = append(fe.edits, edit{start, end, "", 0})
			fe.changed = true
			return
		}
	}
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// renameDoc replaces the first word of a doc comment when it is old.
func (fe *fileEdit) renameDoc(doc *ast.CommentGroup, old, new string) {
	if doc == nil || len(doc.List) == 0 || old == new {
		return
	}
	c := doc.List[0]
	if !strings.HasPrefix(c.Text, "//") {
		return
	}
	body := strings.TrimPrefix(c.Text, "//")
	lead := len(body) - len(strings.TrimLeft(body, " \t"))
	body = body[lead:]
	if !strings.HasPrefix(body, old) {
		return
	}
	if rest := body[len(old):]; rest != "" {
		r := rest[0]
		if r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return
		}
	}
	start := c.Pos() + token.Pos(2+lead)
	fe.add(start, start+token.Pos(len(old)), new, 0)
}
