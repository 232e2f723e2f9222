package replay

// unseen7LintPy: ruff, black, flake8, mypy and pyright in Python
// repositories.
func unseen7LintPy(h *hand) {
	h.note(Note{ID: "ruff-f401-init", Project: "ottertrack", OS: "linux", Lang: "python", At: day(2024, 4, 11),
		Title:   "ruff --fix deleted the re-exports in __init__.py (F401)",
		What:    "Turned on the ruff pre-commit hook with `--fix`. It 'fixed' F401 `.client.Client` imported but unused in src/ottertrack/__init__.py by deleting the imports, and every `from ottertrack import Client` broke.",
		Why:     "Imports in a package __init__ that exist only to re-export look unused to F401 unless they're listed in __all__ or written as `import X as X`.",
		Where:   "src/ottertrack/__init__.py, .pre-commit-config.yaml",
		Learned: "Declared __all__ in __init__.py, after which ruff leaves them alone. per-file-ignores `\"__init__.py\" = [\"F401\"]` also works but hides real unused imports. Don't run --fix on F401 without looking.",
		Fix:     "git checkout -- src/ottertrack/__init__.py"})
	h.ask("ruff-f401-init/1", "ottertrack", "linux", "ruff check .", `
src/ottertrack/__init__.py:3:21: F401 [*] §.client.Client§ imported but unused; consider removing, adding to §__all__§, or using a redundant alias
src/ottertrack/__init__.py:4:22: F401 [*] §.errors.RateLimited§ imported but unused; consider removing, adding to §__all__§, or using a redundant alias
src/ottertrack/__init__.py:5:23: F401 [*] §.pipeline.Pipeline§ imported but unused; consider removing, adding to §__all__§, or using a redundant alias
Found 3 errors.
[*] 3 fixable with the §--fix§ option.
`, "ruff-f401-init", "stored: the tool's own wording")
	h.ask("ruff-f841/1", "ottertrack", "linux", "ruff check src", `
src/ottertrack/sinks/s3.py:61:9: F841 Local variable §resp§ is assigned to but never used
   |
59 |     async def flush(self) -> None:
60 |         body = self._buf.getvalue()
61 |         resp = await self._client.put_object(Bucket=self.bucket, Key=self._key(), Body=body)
   |         ^^^^ F841
62 |         self._buf = io.BytesIO()
   |
   = help: Remove assignment to unused variable §resp§

Found 1 error.
No fixes available (1 hidden fix can be enabled with the §--unsafe-fixes§ option).
`, "", "never stored: same tool, another error")
	h.ask("ruff-e402/1", "fernway", "macos", "ruff check scripts", `
scripts/export_onnx.py:9:1: E402 Module level import not at top of file
scripts/export_onnx.py:10:1: E402 Module level import not at top of file
Found 2 errors.
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "black-target-py38", Project: "ottertrack", OS: "macos", Lang: "python", At: day(2022, 9, 6),
		Title:   "black can't parse `match` — target-version py38 left in pyproject",
		What:    "`black --check .` fails right after I added a match statement: error: cannot format src/ottertrack/router.py: Cannot parse for target version Python 3.8: 41:10:     match event.kind:",
		Why:     "[tool.black] still had target-version = ['py38'] from when we supported 3.8; requires-python is >=3.10 now.",
		Where:   "pyproject.toml [tool.black]",
		Learned: "Bump target-version to py310, or drop it and black infers it from requires-python. The error reads like a syntax error in your file but it's the config.",
		Fix:     "sed -i '' \"s/target-version = \\['py38'\\]/target-version = ['py310']/\" pyproject.toml"})
	h.ask("black-target-py38/1", "ottertrack", "linux", "black --check .", `
error: cannot format /home/dev/ottertrack/src/ottertrack/sinks/kafka.py: Cannot parse for target version Python 3.8: 57:8:         match record.codec:

Oh no! 💥 💔 💥
47 files would be left unchanged, 1 file would fail to reformat.
`, "black-target-py38", "another tool version's wording")
	h.ask("black-reformat/1", "fernway", "linux", "black --check fernway tests", `
would reformat /home/dev/fernway/fernway/train/loop.py
would reformat /home/dev/fernway/tests/test_shards.py

Oh no! 💥 💔 💥
2 files would be reformatted, 31 files would be left unchanged.
Error: Process completed with exit code 1.
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "flake8-pyproject", Project: "fernway", OS: "linux", Lang: "python", At: day(2022, 5, 17),
		Title:   "flake8 ignores [tool.flake8] in pyproject.toml (E501 at 79 cols)",
		What:    "CI flake8 flags hundreds of `E501 line too long (86 > 79 characters)` although pyproject.toml sets max-line-length = 88 under [tool.flake8].",
		Why:     "flake8 doesn't read pyproject.toml at all; only setup.cfg, tox.ini or .flake8.",
		Where:   "pyproject.toml, .flake8",
		Learned: "Moved the section to .flake8 (the Flake8-pyproject plugin is the other way). Keep extend-ignore = E203 so it agrees with black on slices.",
		Fix:     "printf '[flake8]\\nmax-line-length = 88\\nextend-ignore = E203\\n' > .flake8"})
	h.ask("flake8-pyproject/1", "fernway", "linux", "flake8 fernway tests", `
./fernway/train/loop.py:88:80: E501 line too long (87 > 79 characters)
./fernway/train/loop.py:131:80: E501 line too long (84 > 79 characters)
./fernway/data/shards.py:12:80: E501 line too long (88 > 79 characters)
./fernway/data/shards.py:77:80: E501 line too long (81 > 79 characters)
./fernway/data/shards.py:78:80: E501 line too long (85 > 79 characters)
./tests/test_shards.py:40:80: E501 line too long (86 > 79 characters)
Error: Process completed with exit code 1.
`, "flake8-pyproject", "stored: the tool's own wording")
	h.ask("flake8-pyproject/2", "ottertrack", "linux", "tox -e lint", `
lint: commands[0]> flake8 src tests
src/ottertrack/pipeline.py:44:80: E501 line too long (83 > 79 characters)
src/ottertrack/sinks/kafka.py:19:80: E501 line too long (88 > 79 characters)
tests/test_pipeline.py:102:80: E501 line too long (80 > 79 characters)
lint: exit 1 (0.61 seconds) /home/dev/ottertrack> flake8 src tests pid=48213
  lint: FAIL code 1 (3.02=setup[2.41]+cmd[0.61] seconds)
  evaluation failed :( (3.10 seconds)
`, "", "another project's project note")

	// mypy: two notes, and the same kind of failure about another library.
	h.note(Note{ID: "mypy-types-requests", Project: "ottertrack", OS: "linux", Lang: "python", At: day(2023, 6, 12),
		Title:   "mypy in CI: Library stubs not installed for \"requests\"",
		What:    "mypy job fails with `error: Library stubs not installed for \"requests\"  [import]`; passes on my machine.",
		Why:     "requests ships no type hints; the stubs are the separate types-requests package, which I had installed globally but which wasn't in requirements-dev.txt.",
		Where:   "requirements-dev.txt, .github/workflows/ci.yml",
		Learned: "Add stub packages to the dev requirements rather than `mypy --install-types` in CI (slow, and interactive unless --non-interactive).",
		Fix:     "pip install types-requests && echo 'types-requests==2.31.0.1' >> requirements-dev.txt"})
	h.note(Note{ID: "mypy-duplicate-conftest", Project: "fernway", OS: "macos", Lang: "python", At: day(2025, 1, 28),
		Title:   "mypy: Duplicate module named \"conftest\"",
		What:    "After splitting tests into tests/unit and tests/integration, `mypy fernway tests` stops before checking anything: Duplicate module named \"conftest\" (also at \"tests/unit/conftest.py\").",
		Why:     "The test dirs have no __init__.py, so mypy maps both files to the top-level module name `conftest`.",
		Where:   "tests/unit/conftest.py, tests/integration/conftest.py, pyproject.toml [tool.mypy]",
		Learned: "explicit_package_bases = true (with the repo root as base) makes them tests.unit.conftest and tests.integration.conftest. Adding __init__.py would work too but changes pytest's rootdir-based imports.",
		Fix:     "mypy --explicit-package-bases fernway tests"})
	h.ask("mypy-types-requests/1", "ottertrack", "linux", "mypy src", `
src/ottertrack/http.py:5: error: Library stubs not installed for "requests"  [import-untyped]
src/ottertrack/http.py:5: note: Hint: "python3 -m pip install types-requests"
src/ottertrack/http.py:5: note: (or run "mypy --install-types" to install all missing stub packages)
src/ottertrack/http.py:5: note: See https://mypy.readthedocs.io/en/stable/running_mypy.html#missing-imports
Found 1 error in 1 file (checked 48 source files)
`, "mypy-types-requests", "another tool version's wording")
	h.ask("mypy-types-yaml/1", "ottertrack", "linux", "mypy src", `
src/ottertrack/config.py:7: error: Library stubs not installed for "yaml"  [import-untyped]
src/ottertrack/config.py:7: note: Hint: "python3 -m pip install types-PyYAML"
src/ottertrack/config.py:7: note: (or run "mypy --install-types" to install all missing stub packages)
src/ottertrack/config.py:7: note: See https://mypy.readthedocs.io/en/stable/running_mypy.html#missing-imports
Found 1 error in 1 file (checked 48 source files)
`, "", "never stored: same kind, another object")
	h.ask("mypy-duplicate-conftest/1", "fernway", "linux", "mypy fernway tests", `
tests/integration/conftest.py: error: Duplicate module named "conftest" (also at "tests/unit/conftest.py")
tests/integration/conftest.py: note: See https://mypy.readthedocs.io/en/stable/running_mypy.html#mapping-file-paths-to-modules for more info
tests/integration/conftest.py: note: Common resolutions include: a) using §--exclude§ to avoid checking one of them, b) adding §__init__.py§ somewhere, c) using §--explicit-package-bases§ or adjusting MYPYPATH
Found 1 error in 1 file (errors prevented further checking)
Error: Process completed with exit code 2.
`, "mypy-duplicate-conftest", "stored: the tool's own wording")

	// pyright: one note; the same failure in another project; another
	// error of the tool.
	h.note(Note{ID: "pyright-venv", Project: "ottertrack", OS: "macos", Lang: "python", At: day(2025, 4, 3),
		Title:   "pyright can't resolve any third-party import — doesn't see uv's .venv",
		What:    "`npx pyright` reports Import \"httpx\" could not be resolved (reportMissingImports) for every third-party package; mypy under `uv run` is fine.",
		Why:     "pyright launched through npx resolves against whatever python is first on PATH (Homebrew 3.13 here), not the project's .venv.",
		Where:   "pyproject.toml [tool.pyright]",
		Learned: "Set venvPath = \".\" and venv = \".venv\" under [tool.pyright], or install the PyPI pyright wrapper as a dev dep and run it with `uv run` so it inherits the env.",
		Fix:     "uv add --dev pyright && uv run pyright"})
	h.ask("pyright-venv/1", "ottertrack", "macos", "npx pyright", `
No configuration file found.
pyproject.toml file found at /Users/maria/code/ottertrack.
Loading pyproject.toml file at /Users/maria/code/ottertrack/pyproject.toml
Assuming Python version 3.13
Assuming Python platform Darwin
Searching for source files
Found 52 source files
pyright 1.1.389
/Users/maria/code/ottertrack/src/ottertrack/http.py
  /Users/maria/code/ottertrack/src/ottertrack/http.py:3:8 - error: Import "httpx" could not be resolved (reportMissingImports)
/Users/maria/code/ottertrack/src/ottertrack/sinks/s3.py
  /Users/maria/code/ottertrack/src/ottertrack/sinks/s3.py:4:6 - error: Import "aiobotocore.session" could not be resolved (reportMissingImports)
2 errors, 0 warnings, 0 informations 
`, "pyright-venv", "stored: the tool's own wording")
	h.ask("pyright-venv/2", "fernway", "linux", "npx pyright fernway", `
pyright 1.1.392
/home/dev/fernway/fernway/train/loop.py
  /home/dev/fernway/fernway/train/loop.py:6:8 - error: Import "torch" could not be resolved (reportMissingImports)
  /home/dev/fernway/fernway/train/loop.py:7:6 - error: Import "lightning.pytorch" could not be resolved (reportMissingImports)
2 errors, 0 warnings, 0 informations 
`, "", "another project's project note")
	h.ask("pyright-unbound/1", "ottertrack", "macos", "uv run pyright", `
/Users/maria/code/ottertrack/src/ottertrack/pipeline.py
  /Users/maria/code/ottertrack/src/ottertrack/pipeline.py:118:16 - error: "page" is possibly unbound (reportPossiblyUnbound)
1 error, 0 warnings, 0 informations 
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "ottertrack-typecheck-policy", Project: "ottertrack", OS: "linux", Lang: "python", At: day(2025, 6, 2), Type: "decision", NoFailure: true,
		Title:   "ottertrack: mypy gates CI, pyright is editor-only",
		What:    "Decided with Jonas: mypy --strict on src/ is the required CI check; pyright stays in editors and isn't run in CI. Every `# type: ignore` must carry an error code, since warn_unused_ignores is on.",
		Why:     "Running both in CI doubled the suppressions and they disagree on TypedDict totality.",
		Where:   "pyproject.toml [tool.mypy], .github/workflows/ci.yml",
		Learned: "When adding a dependency without types, add its stubs package to the dev group in the same PR.",
		Fix:     ""})
}
