package conformance

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Case is one C or C++ program of the suite with the directives of its
// header comments.
type Case struct {
	Name  string   // file name without extension, e.g. "device_socname"
	Path  string   // absolute path of the source file
	CXX   bool     // a *.cc file, compiled with the C++ compiler
	Needs []Need   // what the target must offer, else the case is skipped
	Env   []string // KEY=VALUE pairs added to the environment of the run
	Link  []string // link flags replacing the default DefaultLink
}

// Need is one item of a "needs:" directive.
type Need struct {
	Name  string // NeedDevices or NeedEmulator
	Value string // the text after '=', empty when there is none
}

func (n Need) String() string {
	if n.Value == "" {
		return n.Name
	}
	return n.Name + "=" + n.Value
}

// The needs a case may declare.
const (
	// NeedDevices ("devices=N"): the target shows at least N devices to the
	// case, counted with the case's own environment.
	NeedDevices = "devices"
	// NeedEmulator: the case uses something only npuemu has (NPUEMU_*
	// variables, the one-library layout).
	NeedEmulator = "emulator"
)

// DefaultLink is what a case links when it has no "link:" directive.
var DefaultLink = []string{"-lascendcl"}

// LinkFlags returns the case's link flags, DefaultLink when it declares none.
func (c Case) LinkFlags() []string {
	if len(c.Link) == 0 {
		return DefaultLink
	}
	return c.Link
}

// Discover returns the cases of dir (*.c and *.cc), sorted by name.
func Discover(dir string) ([]Case, error) {
	var cases []Case
	for _, pat := range []string{"*.c", "*.cc"} {
		files, err := filepath.Glob(filepath.Join(dir, pat))
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			c, err := ParseFile(f)
			if err != nil {
				return nil, err
			}
			cases = append(cases, c)
		}
	}
	sort.Slice(cases, func(i, j int) bool { return cases[i].Name < cases[j].Name })
	for i := 1; i < len(cases); i++ {
		if cases[i].Name == cases[i-1].Name {
			return nil, fmt.Errorf("%s and %s have the same case name", cases[i-1].Path, cases[i].Path)
		}
	}
	return cases, nil
}

// ParseFile reads a case from its source file.
func ParseFile(path string) (Case, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Case{}, err
	}
	src, err := os.ReadFile(abs)
	if err != nil {
		return Case{}, err
	}
	c, err := Parse(filepath.Base(abs), src)
	if err != nil {
		return Case{}, err
	}
	c.Path = abs
	return c, nil
}

// Parse reads the directives of a case named file (used for the name and the
// language) from its source text.
func Parse(file string, src []byte) (Case, error) {
	ext := filepath.Ext(file)
	c := Case{Name: strings.TrimSuffix(file, ext), Path: file}
	switch ext {
	case ".c":
	case ".cc":
		c.CXX = true
	default:
		return Case{}, fmt.Errorf("%s: a case is a .c or .cc file", file)
	}
	for _, d := range directives(string(src)) {
		var err error
		switch d.key {
		case "needs":
			err = c.addNeeds(d.value)
		case "env":
			err = c.addEnv(d.value)
		case "link":
			c.Link = append(c.Link, strings.Fields(d.value)...)
		}
		if err != nil {
			return Case{}, fmt.Errorf("%s:%d: %w", file, d.line, err)
		}
	}
	return c, nil
}

func (c *Case) addNeeds(v string) error {
	items := strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ' ' || r == '\t' })
	if len(items) == 0 {
		return fmt.Errorf("needs: empty list")
	}
	for _, it := range items {
		name, value, _ := strings.Cut(it, "=")
		switch name {
		case NeedDevices:
			if n, err := strconv.Atoi(value); err != nil || n < 1 {
				return fmt.Errorf("needs: %q: want devices=N with N >= 1", it)
			}
		case NeedEmulator:
			if value != "" {
				return fmt.Errorf("needs: %q: emulator takes no value", it)
			}
		default:
			return fmt.Errorf("needs: unknown need %q (known: %s=N, %s)", it, NeedDevices, NeedEmulator)
		}
		c.Needs = append(c.Needs, Need{Name: name, Value: value})
	}
	return nil
}

var envKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func (c *Case) addEnv(v string) error {
	items := strings.Fields(v)
	if len(items) == 0 {
		return fmt.Errorf("env: empty list")
	}
	for _, it := range items {
		k, _, ok := strings.Cut(it, "=")
		if !ok || !envKey.MatchString(k) {
			return fmt.Errorf("env: %q: want KEY=VALUE", it)
		}
		if k == "LD_LIBRARY_PATH" {
			return fmt.Errorf("env: LD_LIBRARY_PATH is set by the runner to the target's library directory")
		}
		c.Env = append(c.Env, it)
	}
	return nil
}

type directive struct {
	key, value string
	line       int
}

var directiveRE = regexp.MustCompile(`^(needs|env|link):(.*)$`)

// directives returns the "key: value" lines found in the comments at the top
// of a C source: comments, blank lines and preprocessor lines may come in any
// order, and the first other line ends the header. Each directive is one
// line; a key may appear several times and its values add up.
func directives(src string) []directive {
	var out []directive
	line := 1
	emit := func(text string, at int) {
		for i, l := range strings.Split(text, "\n") {
			l = strings.TrimSpace(l)
			l = strings.TrimSpace(strings.TrimLeft(l, "*"))
			if m := directiveRE.FindStringSubmatch(l); m != nil {
				out = append(out, directive{key: m[1], value: strings.TrimSpace(m[2]), line: at + i})
			}
		}
	}
	for i := 0; i < len(src); {
		switch {
		case src[i] == '\n':
			line++
			i++
		case src[i] == ' ' || src[i] == '\t' || src[i] == '\r':
			i++
		case strings.HasPrefix(src[i:], "//"):
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				end = len(src) - i
			}
			emit(src[i+2:i+end], line)
			i += end
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				end = len(src) - i - 2 // unterminated: the compiler will say so
			}
			body := src[i+2 : i+2+end]
			emit(body, line)
			line += strings.Count(body, "\n")
			i += 2 + end + 2
		case src[i] == '#':
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				return out
			}
			i += end
		default:
			return out
		}
	}
	return out
}
