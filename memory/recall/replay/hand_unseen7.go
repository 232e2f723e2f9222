package replay

import "strings"

// handUnseen7 is the seventh part written blind: by someone who had read
// neither the engine, nor its misses, nor the other parts' notes. It is
// about the everyday toolchain inside a repository that coding agents run
// all day: linters, formatters and type checkers (ESLint, Prettier, tsc,
// ruff, black, flake8, mypy, pyright, golangci-lint, staticcheck, clippy,
// RuboCop, ShellCheck, hadolint), test runners (pytest, Jest, Vitest, go
// test, cargo test, RSpec, Playwright, Cypress), package managers and
// their lockfiles (npm, pnpm, Yarn Berry, Bun, uv, Poetry, pip and
// pip-tools, conda, cargo, go modules, Bundler, Composer), build tools
// (Make, CMake, Ninja, Meson, Bazel, webpack, Vite, esbuild, Turborepo,
// Nx), git and its hooks (pre-commit, husky, LFS, submodules, rebase
// conflicts, signing), shell and version managers (direnv, nvm, pyenv,
// asdf, mise, PATH, locales), dev containers and docker buildx, and
// mobile builds (xcodebuild, CocoaPods, Gradle for Android, Flutter,
// React Native). Its failures are printed by the tools as they print
// them, often by another version than the note's writer had; it is only
// ever reported.
func handUnseen7() ([]Note, []Query) {
	h := &hand{split: Unseen7, prefix: "unseen7/"}
	unseen7LintJS(h)
	unseen7LintPy(h)
	unseen7LintMisc(h)
	unseen7Runners(h)
	unseen7PkgJS(h)
	unseen7PkgPy(h)
	unseen7PkgSys(h)
	unseen7Build(h)
	unseen7Git(h)
	unseen7Env(h)
	unseen7Mobile(h)
	unseen7Never(h)
	unseen7Again(h)
	// Every tail may spell an escape \e and a backtick §, in raw strings.
	for i := range h.qs {
		h.qs[i].Tail = tty(h.qs[i].Tail)
	}
	return h.notes, h.qs
}

// u7crlf writes a tail the way a Windows console hands it over, each line
// ended by CRLF.
func u7crlf(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
