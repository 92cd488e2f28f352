package emu

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/npuemu/npuemu/abi"
	"github.com/npuemu/npuemu/tsfw"
)

// Environment variables read by LoadConfig.
const (
	EnvConfig  = "NPUEMU_CONFIG"    // path of a JSON file with Config's keys
	EnvDevices = "NPUEMU_DEVICES"   // device count, 1..MaxDevices; overrides the file
	EnvSoC     = "NPUEMU_SOC"       // SoC name from the catalogue; overrides the file
	EnvHBM     = "NPUEMU_HBM_BYTES" // usable device memory in bytes; overrides the file's hbm_bytes

	// EnvVisible is the CANN runtime's device filter: a comma-separated list
	// of physical device ids; the node keeps those devices, renumbered
	// 0..n−1 in list order (parseVisible has the rules).
	EnvVisible = "ASCEND_RT_VISIBLE_DEVICES"
)

// Defaults and limits of the configuration.
const (
	DefaultDevices = 8  // an Atlas A2 server has 8 NPUs
	MaxDevices     = 64 // the most an emulated node may have
)

// Config chooses the emulated node. It is read from the JSON file named by
// NPUEMU_CONFIG; NPUEMU_DEVICES and NPUEMU_SOC override the file.
type Config struct {
	SoC      string  `json:"soc"`       // catalogue name; default DefaultSoC
	Devices  int     `json:"devices"`   // 1..MaxDevices; default DefaultDevices
	HBMBytes uint64  `json:"hbm_bytes"` // usable device memory; 0 = the SoC's UsableHBMBytes
	Pacing   float64 `json:"pacing"`    // 0 = as fast as possible, 1 = wall clock follows virtual time

	// Visible is nil unless ASCEND_RT_VISIBLE_DEVICES selected devices:
	// then node device i is physical device Visible[i] of a machine with
	// Physical devices, and Devices == len(Visible). Everything above the
	// HAL and ACL sees node (user) ids; PhysicalID maps them back.
	Visible  []int `json:"-"`
	Physical int   `json:"-"`

	// NodeDir is the node directory shared with the other processes of
	// the machine (docs/node.md), from NPUEMU_NODE; "" = a node private to
	// this process (Go programs that did not ask for one).
	NodeDir string `json:"-"`

	// Source says where the values came from ("defaults", the file, the
	// environment variables), for `npuemu info` and messages.
	Source string `json:"-"`
}

// DefaultConfig is the configuration of a node nobody configured.
func DefaultConfig() Config {
	return Config{SoC: DefaultSoC, Devices: DefaultDevices, Source: "defaults"}
}

// fileConfig is the JSON file's shape; pointers tell "absent" from zero so
// that an explicit "devices": 0 is reported rather than defaulted.
type fileConfig struct {
	SoC      *string  `json:"soc"`
	Devices  *int     `json:"devices"`
	HBMBytes *uint64  `json:"hbm_bytes"`
	Pacing   *float64 `json:"pacing"`
}

// LoadConfig builds the node configuration from NPUEMU_CONFIG, NPUEMU_DEVICES
// and NPUEMU_SOC on top of DefaultConfig. Every problem is an abi.DevError
// of kind DevBadArgument naming the file, variable or key at fault.
func LoadConfig() (Config, error) {
	return loadConfig(os.Getenv)
}

func loadConfig(getenv func(string) string) (Config, error) {
	cfg := DefaultConfig()
	var sources []string
	if path := getenv(EnvConfig); path != "" {
		if err := readConfigFile(path, &cfg); err != nil {
			return Config{}, err
		}
		sources = append(sources, "file "+path)
	}
	if v := getenv(EnvDevices); v != "" {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 || n > MaxDevices {
			return Config{}, abi.DevErrorf(abi.DevBadArgument,
				"%s=%q: want a device count from 1 to %d", EnvDevices, v, MaxDevices)
		}
		cfg.Devices = n
		sources = append(sources, EnvDevices+"="+v)
	}
	if v := getenv(EnvSoC); v != "" {
		if _, ok := LookupSoC(v); !ok {
			return Config{}, abi.DevErrorf(abi.DevBadArgument,
				"%s=%q: unknown SoC; known: %s", EnvSoC, v, strings.Join(SoCNames(), ", "))
		}
		cfg.SoC = v
		sources = append(sources, EnvSoC+"="+v)
	}
	if v := getenv(EnvHBM); v != "" {
		n, err := strconv.ParseUint(strings.TrimSpace(v), 0, 64)
		if err != nil || n == 0 {
			return Config{}, abi.DevErrorf(abi.DevBadArgument, "%s=%q: want a byte count > 0", EnvHBM, v)
		}
		cfg.HBMBytes = n
		sources = append(sources, EnvHBM+"="+v)
	}
	dir, err := resolveNodeDir(getenv(EnvNode))
	if err != nil {
		return Config{}, err
	}
	cfg.NodeDir = dir
	if v := getenv(tsfw.EnvThreads); v != "" {
		// Read by tsfw.HostThreads itself; checked here so that a bad
		// value is an error rather than the default.
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 1 || n > tsfw.MaxHostThreads {
			return Config{}, abi.DevErrorf(abi.DevBadArgument,
				"%s=%q: want a host thread count from 1 to %d", tsfw.EnvThreads, v, tsfw.MaxHostThreads)
		}
		sources = append(sources, tsfw.EnvThreads+"="+v)
	}
	if v := getenv(EnvVisible); v != "" {
		vis, note, err := parseVisible(v, cfg.Devices)
		if err != nil {
			return Config{}, err
		}
		cfg.Physical, cfg.Visible, cfg.Devices = cfg.Devices, vis, len(vis)
		sources = append(sources, EnvVisible+"="+v+note)
	}
	if len(sources) > 0 {
		cfg.Source = strings.Join(sources, ", ")
	}
	if err := cfg.Validate(); err != nil {
		var ae *abi.DevError
		if errors.As(err, &ae) {
			return Config{}, abi.DevErrorf(ae.Kind, "%s (configuration from %s)", ae.Msg, cfg.Source)
		}
		return Config{}, err
	}
	return cfg, nil
}

// parseVisible reads ASCEND_RT_VISIBLE_DEVICES against a machine of
// physical devices. The spec only says that the listed devices are
// renumbered 0..n−1; for bad entries npuemu applies the rule of
// CUDA_VISIBLE_DEVICES, which this variable imitates: ids are taken in
// order up to the first entry that is not a decimal id, is out of range or
// repeats an earlier one; that entry and everything after it are ignored
// (note says so, for `npuemu info`). A list that leaves no device visible is
// an error (ACL_ERROR_RT_INVALID_DEVICEID): every device call of the process
// would fail anyway, and failing at aclInit says why.
func parseVisible(v string, physical int) (ids []int, note string, err error) {
	seen := make(map[int]bool)
	for i, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		id, perr := strconv.Atoi(f)
		bad := ""
		switch {
		case perr != nil || f == "" || f[0] == '+' || f[0] == '-':
			bad = "not a device id"
		case id >= physical:
			bad = fmt.Sprintf("out of range (the node has %d devices)", physical)
		case seen[id]:
			bad = "repeated"
		}
		if bad != "" {
			if len(ids) == 0 {
				return nil, "", abi.DevErrorf(abi.DevNoDevice,
					"%s=%q: entry %d %q is %s, so no device is visible", EnvVisible, v, i, f, bad)
			}
			return ids, fmt.Sprintf(" (entry %d %q %s: it and the rest are ignored)", i, f, bad), nil
		}
		seen[id] = true
		ids = append(ids, id)
	}
	return ids, "", nil
}

// PhysicalID returns the physical id of node device i (i itself unless
// ASCEND_RT_VISIBLE_DEVICES selected devices).
func (c Config) PhysicalID(i int) int {
	if c.Visible == nil || i < 0 || i >= len(c.Visible) {
		return i
	}
	return c.Visible[i]
}

// NodeID returns the node (user) id of physical device phys, and false
// when phys does not exist or is not visible.
func (c Config) NodeID(phys int) (int, bool) {
	if c.Visible == nil {
		return phys, phys >= 0 && phys < c.Devices
	}
	for i, p := range c.Visible {
		if p == phys {
			return i, true
		}
	}
	return -1, false
}

// PhysicalCount returns the number of devices of the machine before
// ASCEND_RT_VISIBLE_DEVICES filtered them.
func (c Config) PhysicalCount() int {
	if c.Visible == nil {
		return c.Devices
	}
	return c.Physical
}

// readConfigFile decodes the JSON file at path over cfg.
func readConfigFile(path string, cfg *Config) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return abi.DevErrorf(abi.DevBadArgument, "%s: cannot read configuration file: %v", EnvConfig, err)
	}
	var fc fileConfig
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&fc); err != nil {
		return configFileError(path, data, err)
	}
	end := dec.InputOffset()
	if rest := bytes.TrimLeft(data[end:], " \t\r\n"); len(rest) > 0 {
		return abi.DevErrorf(abi.DevBadArgument, "%s %s: unexpected data after the JSON object at %s",
			EnvConfig, path, position(data, int64(len(data)-len(rest))))
	}
	bad := func(key, format string, args ...any) error {
		return abi.DevErrorf(abi.DevBadArgument, "%s %s: key %q: %s", EnvConfig, path, key, fmt.Sprintf(format, args...))
	}
	if fc.SoC != nil {
		if _, ok := LookupSoC(*fc.SoC); !ok {
			return bad("soc", "unknown SoC %q; known: %s", *fc.SoC, strings.Join(SoCNames(), ", "))
		}
		cfg.SoC = *fc.SoC
	}
	if fc.Devices != nil {
		if *fc.Devices < 1 || *fc.Devices > MaxDevices {
			return bad("devices", "%d is not a device count from 1 to %d", *fc.Devices, MaxDevices)
		}
		cfg.Devices = *fc.Devices
	}
	if fc.HBMBytes != nil {
		if *fc.HBMBytes == 0 {
			return bad("hbm_bytes", "0 bytes; omit the key to use the SoC's capacity")
		}
		cfg.HBMBytes = *fc.HBMBytes
	}
	if fc.Pacing != nil {
		if *fc.Pacing < 0 || math.IsNaN(*fc.Pacing) || math.IsInf(*fc.Pacing, 0) {
			return bad("pacing", "%v is not a finite number >= 0", *fc.Pacing)
		}
		cfg.Pacing = *fc.Pacing
	}
	return nil
}

// configFileError turns a decoding error into a message with the file and the
// line:column of the fault.
func configFileError(path string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return abi.DevErrorf(abi.DevBadArgument, "%s %s: malformed JSON at %s: %v",
			EnvConfig, path, position(data, syn.Offset), syn)
	case errors.As(err, &typ):
		if typ.Field == "" {
			return abi.DevErrorf(abi.DevBadArgument, "%s %s: the file must hold one JSON object, not a JSON %s",
				EnvConfig, path, typ.Value)
		}
		want := map[string]string{"int": "an integer", "uint64": "a non-negative integer", "float64": "a number", "string": "a string"}[typ.Type.String()]
		return abi.DevErrorf(abi.DevBadArgument, "%s %s: key %q at %s: want %s, got a JSON %s",
			EnvConfig, path, typ.Field, position(data, typ.Offset), want, typ.Value)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return abi.DevErrorf(abi.DevBadArgument, "%s %s: malformed JSON at %s: unexpected end of file",
			EnvConfig, path, position(data, int64(len(data))))
	}
	if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return abi.DevErrorf(abi.DevBadArgument, "%s %s: unknown key %s (known keys: soc, devices, hbm_bytes, pacing)",
			EnvConfig, path, field)
	}
	return abi.DevErrorf(abi.DevBadArgument, "%s %s: %v", EnvConfig, path, err)
}

// position renders a byte offset of data as "line L, column C" (1-based).
func position(data []byte, off int64) string {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line := bytes.Count(before, []byte{'\n'}) + 1
	col := int(off) - bytes.LastIndexByte(before, '\n')
	return fmt.Sprintf("line %d, column %d", line, col)
}

// Validate checks a Config built in code (LoadConfig's results always pass).
func (c Config) Validate() error {
	soc, ok := LookupSoC(c.SoC)
	if !ok {
		return abi.DevErrorf(abi.DevBadArgument, "emu: unknown SoC %q; known: %s", c.SoC, strings.Join(SoCNames(), ", "))
	}
	if c.Devices < 1 || c.Devices > MaxDevices {
		return abi.DevErrorf(abi.DevBadArgument, "emu: %d devices: want 1 to %d", c.Devices, MaxDevices)
	}
	if c.HBMBytes > soc.HBMBytes {
		return abi.DevErrorf(abi.DevBadArgument, "emu: hbm_bytes %d exceeds the %s's %d bytes of device memory",
			c.HBMBytes, c.SoC, soc.HBMBytes)
	}
	if c.Pacing < 0 || math.IsNaN(c.Pacing) || math.IsInf(c.Pacing, 0) {
		return abi.DevErrorf(abi.DevBadArgument, "emu: pacing %v is not a finite number >= 0", c.Pacing)
	}
	if c.Visible != nil {
		if len(c.Visible) != c.Devices || c.Physical < c.Devices || c.Physical > MaxDevices {
			return abi.DevErrorf(abi.DevBadArgument, "emu: %d visible devices of %d physical for a node of %d devices",
				len(c.Visible), c.Physical, c.Devices)
		}
		seen := make(map[int]bool)
		for _, p := range c.Visible {
			if p < 0 || p >= c.Physical || seen[p] {
				return abi.DevErrorf(abi.DevBadArgument, "emu: visible device %d: repeated or not in 0..%d", p, c.Physical-1)
			}
			seen[p] = true
		}
	}
	return nil
}
