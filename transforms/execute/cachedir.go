package execute

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// UserDir is name-<uid> under the temporary directory: the engines' caches (a
// compiled harness, a precompiled header) are shared by one user's processes and
// kept apart from other users', who could not write into them.
func UserDir(name string) string {
	return filepath.Join(os.TempDir(), fmt.Sprintf("%s-%d", name, os.Getuid()))
}

// Digest is the first n bytes, in hex, of the SHA-256 of parts joined by NUL
// bytes: the name of a cache entry built from those sources and tools, so that a
// change to any of them builds a new one.
func Digest(n int, parts ...string) string {
	h := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(h[:n])
}
