package main

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestZsocUpToDate keeps dcmi/zsoc.c equal to what the catalogue renders.
func TestZsocUpToDate(t *testing.T) {
	got, err := os.ReadFile("../../dcmi/zsoc.c")
	require.NoError(t, err)
	assert.Equal(t, string(render()), string(got), "dcmi/zsoc.c is stale: run go run ./cmd/dcmigen")
}
