package conformance

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/rt/stack"
	"github.com/stretchr/testify/require"
)

// TestSplitLayoutForwardingHook runs the ACL cases that call a routed
// aclrt*/aclmdlRI* function (docs/stack.md, "What binds where today"),
// and the stack_* cases that call rt* functions directly without a layout
// or hook of their own, in the split layout under an LD_PRELOAD library
// that defines every routed rt* function, every rt*/hal* symbol the
// runtime calls across the boundary in Go (rt/stack) and every rt*
// function of rt/stack's Crossings as "count, then forward to the next
// definition" — the smallest sharing layer there is. Three things must
// hold:
//   - every such case still passes: each route hands the rt* function the
//     arguments it needs (a wrong cast, order or enum translation shows as
//     a failing case);
//   - every hooked function is seen by the hook in at least one case
//     (routeNotExercised lists the few no case reaches), so the routes and
//     crossings are taken, not just compiled;
//   - the driver calls each hooked rt* function is seen making are
//     exactly those rt/stack's Crossings lists for it (checkCrossings).
func TestSplitLayoutForwardingHook(t *testing.T) {
	if *realFlag {
		t.Skip("the split layout is npuemu's (NPUEMU_STACK); nothing to forward on a real machine")
	}
	tg := target(t)
	repo, err := filepath.Abs("..")
	require.NoError(t, err)
	routes := routedCalls(t, filepath.Join(repo, "libfake", "zshims.c"))
	require.NotEmpty(t, routes)
	crossings := crossingNames(t, filepath.Join(repo, "libfake", "stack.c"))
	require.NotEmpty(t, crossings)

	dir := t.TempDir()
	hooked := uniqueRT(routes)
	for fn := range stack.Crossings { // the rt* functions whose driver calls are checked
		crossings = append(crossings, fn)
	}
	for _, name := range crossings {
		if !slices.Contains(hooked, name) {
			hooked = append(hooked, name)
		}
	}
	sort.Strings(hooked)
	hook := buildForwardHook(t, tg, hooked, dir)

	cases, err := Discover("cases")
	require.NoError(t, err)
	// A case is chosen when it calls a routed ACL function.
	names := make([]string, 0, len(routes))
	for acl := range routes {
		names = append(names, regexp.QuoteMeta(acl))
	}
	callsRouted := regexp.MustCompile(`\b(?:` + strings.Join(names, "|") + `)\(`)
	var chosen []Case
	for _, c := range cases {
		if strings.HasPrefix(c.Name, "ascendc_") || splitCaseExcluded[c.Name] != "" {
			continue // ascendc_*: kernel builds, no route of their own
		}
		src, err := os.ReadFile(c.Path)
		require.NoError(t, err)
		if strings.HasPrefix(c.Name, "stack_") {
			// The cases that call rt* functions directly, unless they
			// choose a layout or preload a hook of their own.
			if !bytes.Contains(src, []byte("NPUEMU_STACK")) && !bytes.Contains(src, []byte("LD_PRELOAD")) {
				chosen = append(chosen, c)
			}
			continue
		}
		if callsRouted.Match(src) {
			chosen = append(chosen, c)
		}
	}
	require.NotEmpty(t, chosen)

	counts := map[string]int{}
	var mu sync.Mutex
	compilers := make(chan struct{}, runtime.GOMAXPROCS(0))
	t.Run("cases", func(t *testing.T) {
		for _, c := range chosen {
			t.Run(c.Name, func(t *testing.T) {
				t.Parallel()
				reason, err := tg.Unmet(c)
				require.NoError(t, err)
				if reason != "" {
					t.Skip(reason)
				}
				compilers <- struct{}{}
				exe, log, err := tg.Build(c, dir)
				<-compilers
				require.NoError(t, err, "%s", log)
				out := filepath.Join(dir, c.Name+".counts")
				c.Env = append(append([]string{}, c.Env...),
					"NPUEMU_STACK=split", "LD_PRELOAD="+hook, "FORWARD_HOOK_OUT="+out)
				ctx, cancel := context.WithTimeout(context.Background(), *caseTimeout)
				defer cancel()
				r := tg.Run(ctx, c, exe)
				switch r.Outcome {
				case Pass:
				case Skip:
					t.Skip(r.Reason)
				default:
					t.Fatalf("%s under the forwarding hook (split layout): %s\n--- stdout\n%s--- stderr\n%s", c.Name, r.Reason, r.Stdout, r.Stderr)
				}
				mu.Lock()
				defer mu.Unlock()
				readCounts(t, out, counts)
			})
		}
	})
	if t.Failed() {
		return
	}
	var missing []string
	for _, rt := range hooked {
		if counts[rt] == 0 && routeNotExercised[rt] == "" {
			missing = append(missing, rt)
		}
		if counts[rt] > 0 && routeNotExercised[rt] != "" {
			t.Errorf("%s is listed in routeNotExercised but a case reached it: remove it from the list", rt)
		}
	}
	sort.Strings(missing)
	require.Empty(t, missing, "routed rt* functions no ACL case reached through the forwarding hook: "+
		"add a case that calls their aclrt* function, or list them in routeNotExercised with why")
	checkCrossings(t, counts)
	t.Logf("%d hooked rt*/hal* functions, %d reached by %d cases", len(hooked), len(counts), len(chosen))
}

// checkCrossings compares the driver calls the hook saw each hooked rt*
// function make (counts' "rtX>halY" keys) with stack.Crossings: a call
// seen must be listed there, and a listed call of an rt* function some
// case reached must be seen (unless crossingNotObserved says why not).
func checkCrossings(t *testing.T, counts map[string]int) {
	seen := map[string]bool{}
	var unlisted, unseen []string
	for k := range counts {
		fn, call, ok := strings.Cut(k, ">")
		if !ok || !(strings.HasPrefix(call, "hal") || strings.HasPrefix(call, "drv")) {
			continue
		}
		seen[fn+" "+call] = true
		if !slices.Contains(stack.Crossings[fn], call) && crossingBeyondRow[fn+" "+call] == "" {
			unlisted = append(unlisted, fn+" → "+call)
		}
	}
	for fn, calls := range stack.Crossings {
		for _, call := range calls {
			if !seen[fn+" "+call] && crossingNotObserved[fn+" "+call] == "" {
				unseen = append(unseen, fn+" → "+call)
			}
		}
	}
	sort.Strings(unlisted)
	sort.Strings(unseen)
	require.Empty(t, unlisted, "driver calls hooked rt* functions were seen making that rt/stack's Crossings does not list")
	require.Empty(t, unseen, "driver calls rt/stack's Crossings lists that no case saw the rt* function make")
}

// crossingBeyondRow: driver calls seen inside an rt* function that are not
// its own work in rt-to-hal.tsv's sense (so not in stack.Crossings), and why.
var crossingBeyondRow = map[string]string{
	"rtMemMapSelectedLink halMemUnmap": "the undo of the mappings it made when a later block fails (npuemu leaves no half-made mapping; stack_rt_vmm_more makes it fail)",
	"rtMalloc halMemFree":              "the release of memory an earlier rtFree/aclrtFree freed while queued work still used it, made at the next allocation (docs/hardening.md, section 5); the halMemFree is that rtFree's",
}

// crossingNotObserved: pairs of stack.Crossings whose rt* function the
// cases reach but never on the path that makes the driver call, and why.
var crossingNotObserved = map[string]string{}

// splitCaseExcluded: cases that check what only the merged layout does, and why.
var splitCaseExcluded = map[string]string{
	"kernel_launch_batch":          "checks the front's deferred (batched) launches, whose failures surface at the next synchronisation; a routed launch is made when called, so an interposer sees each one, and fails immediately",
	"kernel_launch_batch_variants": "the same for the deferred aclrtLaunchKernelWithHostArgs and aclrtLaunchKernel launches",
}

// routeNotExercised: hooked functions no plain ACL case reaches through an
// ACL function, and why.
var routeNotExercised = map[string]string{}

// crossingNames reads the rt*/hal* symbols the runtime calls through the
// library boundary in Go (libfake/stack.c's cross_names: the Go-routed ACL
// rows and the rt* -> hal* calls).
func crossingNames(t *testing.T, stackC string) []string {
	data, err := os.ReadFile(stackC)
	require.NoError(t, err)
	var out []string
	for _, m := range regexp.MustCompile(`\[NPU_X_\w+\] = "(\w+)"`).FindAllStringSubmatch(string(data), -1) {
		out = append(out, m[1])
	}
	return out
}

// routedCalls reads the generated shims: ACL function -> the rt* function
// its split-layout route calls.
func routedCalls(t *testing.T, zshims string) map[string]string {
	data, err := os.ReadFile(zshims)
	require.NoError(t, err)
	fnRe := regexp.MustCompile(`^static inline \w+ emu_(\w+)\(`)
	routeRe := regexp.MustCompile(`/\* split layout, (\w+) interposed \*/`)
	routes := map[string]string{}
	cur := ""
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if m := fnRe.FindStringSubmatch(line); m != nil {
			cur = m[1]
		} else if m := routeRe.FindStringSubmatch(line); m != nil && cur != "" {
			routes[cur] = m[1]
		}
	}
	return routes
}

func uniqueRT(routes map[string]string) []string {
	seen := map[string]bool{}
	var out []string
	for _, rt := range routes {
		if !seen[rt] {
			seen[rt] = true
			out = append(out, rt)
		}
	}
	sort.Strings(out)
	return out
}

// buildForwardHook writes and compiles the forwarding hook: each rt* function
// with the prototype of runtime/rt.h counts its calls and calls the next
// definition; at exit the counts go to $FORWARD_HOOK_OUT, one "name count"
// line each.
func buildForwardHook(t *testing.T, tg *Target, rts []string, dir string) string {
	var b strings.Builder
	b.WriteString("#define _GNU_SOURCE\n#include <dlfcn.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include \"runtime/rt.h\"\n#include \"ascend_hal.h\"\n\n")
	// counts[i]: calls of names[i]; pairs[i][j]: calls of the driver
	// function j made while the rt* function i (the innermost hooked rt*
	// call on this thread) was running.
	fmt.Fprintf(&b, "static long counts[%d];\nstatic long pairs[%d][%d];\nstatic __thread int cur = -1;\nstatic const char *const names[%d] = {\n",
		len(rts), len(rts), len(rts), len(rts))
	for _, rt := range rts {
		fmt.Fprintf(&b, "    %q,\n", rt)
	}
	b.WriteString("};\n")
	b.WriteString(`static void *next(const char *name) {
    void *p = dlsym(RTLD_NEXT, name);
    if (p == NULL) { fprintf(stderr, "forward hook: no next %s\n", name); abort(); }
    return p;
}
__attribute__((destructor)) static void dump(void) {
    const char *out = getenv("FORWARD_HOOK_OUT");
    if (out == NULL) return;
    FILE *f = fopen(out, "a");
    if (f == NULL) return;
    for (unsigned i = 0; i < sizeof counts / sizeof counts[0]; i++)
        if (counts[i] != 0) fprintf(f, "%s %ld\n", names[i], counts[i]);
    for (unsigned i = 0; i < sizeof counts / sizeof counts[0]; i++)
        for (unsigned j = 0; j < sizeof counts / sizeof counts[0]; j++)
            if (pairs[i][j] != 0) fprintf(f, "%s>%s %ld\n", names[i], names[j], pairs[i][j]);
    fclose(f);
}
`)
	for i, rt := range rts {
		s, ok := abi.SymbolByName(rt)
		require.True(t, ok, rt)
		params, names := s.Params, []string{}
		if params == "(empty)" || params == "void" || params == "" {
			params = "void"
		} else {
			for _, p := range strings.Split(params, ",") {
				f := strings.FieldsFunc(p, func(r rune) bool { return strings.ContainsRune(" *&[]", r) })
				names = append(names, f[len(f)-1])
			}
		}
		fmt.Fprintf(&b, "%s %s(%s) {\n    __atomic_add_fetch(&counts[%d], 1, __ATOMIC_SEQ_CST);\n", s.Return, rt, params, i)
		call := fmt.Sprintf("((__typeof__(&%s))next(%q))(%s)", rt, rt, strings.Join(names, ", "))
		if strings.HasPrefix(rt, "rt") {
			fmt.Fprintf(&b, "    int prev = cur;\n    cur = %d;\n    %s r = %s;\n    cur = prev;\n    return r;\n}\n", i, s.Return, call)
		} else {
			fmt.Fprintf(&b, "    if (cur >= 0) __atomic_add_fetch(&pairs[cur][%d], 1, __ATOMIC_SEQ_CST);\n    return %s;\n}\n", i, call)
		}
	}
	src := filepath.Join(dir, "forward_hook.c")
	require.NoError(t, os.WriteFile(src, []byte(b.String()), 0o644))
	so := filepath.Join(dir, "forward_hook.so")
	args := append(append([]string{}, tg.CC[1:]...), "-shared", "-fPIC", "-O1", "-Wall", "-Werror",
		"-Wno-deprecated-declarations", "-I", tg.Include, "-I", filepath.Join(tg.Include, "driver"), "-o", so, src, "-ldl")
	out, err := exec.Command(tg.CC[0], args...).CombinedOutput()
	require.NoError(t, err, "compiling the forwarding hook: %s", out)
	return so
}

func readCounts(t *testing.T, path string, into map[string]int) {
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return
	}
	require.NoError(t, err)
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		n, err := strconv.Atoi(f[1])
		require.NoError(t, err)
		into[f[0]] += n
	}
}
