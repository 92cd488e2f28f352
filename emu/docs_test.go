package emu

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the catalogue table of docs/configuration.md")

const docsPath = "../docs/configuration.md"

// The catalogue table is the last section of docs/configuration.md.
const catalogueMarker = "\n| SoC | family |"

func TestDocsCatalogue(t *testing.T) {
	data, err := os.ReadFile(docsPath)
	require.NoError(t, err)
	doc := string(data)
	i := strings.Index(doc, catalogueMarker)
	require.GreaterOrEqual(t, i, 0, "docs/configuration.md has no catalogue table")
	want := doc[:i+1] + CatalogueMarkdown()
	if *update {
		require.NoError(t, os.WriteFile(docsPath, []byte(want), 0o644))
		return
	}
	require.Equal(t, want, doc, "docs/configuration.md's catalogue is stale: go test ./emu -run TestDocsCatalogue -update")
}
