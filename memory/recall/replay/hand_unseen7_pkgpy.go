package replay

// unseen7PkgPy: uv, Poetry, pip and pip-tools, conda.
func unseen7PkgPy(h *hand) {
	// uv behind a TLS-inspecting proxy: one message, a note per system.
	h.note(Note{ID: "uv-tls-macos", Project: "ottertrack", Scope: "global", OS: "macos", Lang: "python", At: day(2024, 9, 9),
		Title:   "uv: invalid peer certificate: UnknownIssuer on the office network (macOS)",
		What:    "`uv sync` fails downloading wheels: Request failed after 3 retries ... invalid peer certificate: UnknownIssuer. pip on the same machine works.",
		Why:     "uv uses its bundled webpki roots by default, not the macOS keychain where IT installed the proxy's root CA. pip works because it goes through truststore.",
		Where:   "~/.config/uv/uv.toml",
		Learned: "native-tls = true in uv.toml (or UV_NATIVE_TLS=1) makes uv read the keychain. No need to export the CA to a file on macOS.",
		Fix:     "mkdir -p ~/.config/uv && echo 'native-tls = true' >> ~/.config/uv/uv.toml"})
	h.note(Note{ID: "uv-tls-linux", Project: "ottertrack", Scope: "global", OS: "linux", Lang: "python", At: day(2024, 11, 4),
		Title:   "uv UnknownIssuer on the self-hosted Linux runner: CA not in the system bundle",
		What:    "Same `invalid peer certificate: UnknownIssuer` from uv on the new runner, and --native-tls didn't change anything there.",
		Why:     "On Linux native-tls reads the system store, but the proxy's root was only copied to /usr/local/share/ca-certificates; update-ca-certificates was never run, so it wasn't in the bundle.",
		Where:   "runner image provisioning (ansible role), /usr/local/share/ca-certificates/",
		Learned: "Run update-ca-certificates after dropping the .crt, then SSL_CERT_FILE or native-tls both work. Check with `openssl s_client -connect pypi.org:443 -CAfile /etc/ssl/certs/ca-certificates.crt`.",
		Fix:     "sudo update-ca-certificates && export SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt"})
	h.ask("uv-tls-macos/1", "ottertrack", "macos", "uv sync", `
Resolved 84 packages in 1.21s
error: Failed to fetch: §https://files.pythonhosted.org/packages/56/95/9377bcb415797e44274b51d46e3249eba641711cf3348050f76ee7b15ffc/httpx-0.27.2-py3-none-any.whl§
  Caused by: Request failed after 3 retries
  Caused by: error sending request for url (https://files.pythonhosted.org/packages/56/95/9377bcb415797e44274b51d46e3249eba641711cf3348050f76ee7b15ffc/httpx-0.27.2-py3-none-any.whl)
  Caused by: client error (Connect)
  Caused by: invalid peer certificate: UnknownIssuer
`, "uv-tls-macos", "twin on another system")
	h.ask("uv-tls-linux/1", "fernway", "linux", "uv pip install -r requirements.txt", `
error: Failed to fetch: §https://pypi.org/simple/numpy/§
  Caused by: Request failed after 3 retries
  Caused by: error sending request for url (https://pypi.org/simple/numpy/)
  Caused by: client error (Connect)
  Caused by: invalid peer certificate: UnknownIssuer
Error: Process completed with exit code 2.
`, "uv-tls-linux", "twin on another system; global note, another project")
	h.ask("uv-no-wheels/1", "fernway", "linux", "uv lock", `
  × No solution found when resolving dependencies for split (python_full_version >= '3.13'):
  ╰─▶ Because torch==2.3.1 has no wheels with a matching Python version tag (e.g., §cp313§) and fernway depends on torch==2.3.1, we can conclude that fernway's requirements are unsatisfiable.

      hint: Wheels are available for §torch§ (v2.3.1) with the following Python ABI tags: §cp38§, §cp39§, §cp310§, §cp311§, §cp312§
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "uv-python-pin", Project: "ottertrack", OS: "windows", Lang: "python", At: day(2025, 6, 17),
		Title:   "uv on Windows picks 3.13 from .python-version, project says <3.13",
		What:    "`uv sync` on the Windows box: error: The requested interpreter resolved to Python 3.13.1, which is incompatible with the project's Python requirement: `>=3.10, <3.13`.",
		Why:     "Someone ran `uv python pin 3.13` and committed .python-version while requires-python still caps at <3.13 (numba has no 3.13 wheels yet).",
		Where:   ".python-version, pyproject.toml requires-python",
		Learned: "The pin and requires-python must agree; uv doesn't fall back to another interpreter when the pin is explicit.",
		Fix:     "uv python pin 3.12 && uv sync"})
	h.ask("uv-python-pin/1", "ottertrack", "windows", "uv run pytest", u7crlf(`
Using CPython 3.13.1
error: The requested interpreter resolved to Python 3.13.1, which is incompatible with the project's Python requirement: §>=3.10, <3.13§ (from §project.requires-python§)
Use §uv python pin§ to update the §.python-version§ file to a compatible version
`), "uv-python-pin", "windows console")

	// Poetry: the 2023 fix declared replaced when Poetry 2 dropped its flag.
	h.note(Note{ID: "poetry-lock-no-update", Project: "fernway", OS: "linux", Lang: "python", At: day(2023, 3, 28),
		Title:   "poetry install: pyproject.toml changed significantly since poetry.lock was generated",
		What:    "`poetry install` in CI stops: pyproject.toml changed significantly since poetry.lock was last generated. Run `poetry lock [--no-update]` to fix the lock file.",
		Why:     "A PR added a dependency to pyproject by hand without relocking.",
		Where:   "pyproject.toml, poetry.lock",
		Learned: "Use --no-update: it keeps every other pin as it is. Plain `poetry lock` re-resolves and upgrades everything.",
		Fix:     "poetry lock --no-update && poetry install"})
	h.note(Note{ID: "poetry2-lock", Project: "fernway", OS: "macos", Lang: "python", At: day(2025, 2, 3), Supersedes: "poetry-lock-no-update",
		Title:   "Poetry 2: `poetry lock --no-update` is gone, plain `poetry lock` keeps pins",
		What:    "Same 'pyproject.toml changed significantly since poetry.lock was last generated' after the Poetry 2.0 upgrade, and my usual `poetry lock --no-update` now fails with: The option \"--no-update\" does not exist.",
		Why:     "Poetry 2.0 made no-update the default behaviour of `poetry lock` and removed the flag; a full re-resolve is now `poetry lock --regenerate`. `install --sync` also moved to `poetry sync`.",
		Where:   "pyproject.toml, poetry.lock, Makefile (lock target)",
		Learned: "Replaces the --no-update advice. Updated the Makefile and the CI step.",
		Fix:     "poetry lock && poetry sync"})
	h.ask("poetry2-lock/1", "fernway", "linux", "poetry install --no-root", `
Installing dependencies from lock file
pyproject.toml changed significantly since poetry.lock was last generated. Run §poetry lock§ to fix the lock file.
Error: Process completed with exit code 1.
`, "poetry2-lock", "superseded, declared", "poetry-lock-no-update")
	h.ask("poetry2-lock/2", "fernway", "macos", "poetry lock --no-update", `

The option "--no-update" does not exist
`, "poetry2-lock", "superseded, declared: the old fix fails", "poetry-lock-no-update")
	h.ask("poetry-solver/1", "fernway", "linux", "poetry add torch==2.1.0+cu118", `
Updating dependencies
Resolving dependencies... (2.3s)

Because fernway depends on torch (2.1.0+cu118) which doesn't match any versions, version solving failed.
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "pip-externally-managed", Project: "mossgate", Scope: "global", OS: "linux", Lang: "python", At: day(2023, 7, 19),
		Title:   "pip install: externally-managed-environment on Debian 12",
		What:    "`pip install -r tools/requirements.txt` on the new bookworm build box: error: externally-managed-environment × This environment is externally managed.",
		Why:     "PEP 668: the distro python marks itself as externally managed so pip won't write into /usr/lib/python3. Same on Ubuntu 23.04+ and Homebrew's python.",
		Where:   "tools/requirements.txt, the build box",
		Learned: "Make a venv for the tools (or pipx for single CLIs). --break-system-packages works but can break apt's python packages.",
		Fix:     "python3 -m venv .venv && . .venv/bin/activate && pip install -r tools/requirements.txt"})
	h.ask("pip-externally-managed/1", "lanternpay", "macos", "pip3 install pre-commit", `
error: externally-managed-environment

× This environment is externally managed
╰─> To install Python packages system-wide, try brew install
    xyz, where xyz is the package you are trying to
    install.
    
    If you wish to install a Python library that isn't in Homebrew,
    use a virtual environment:
    
    python3 -m venv path/to/venv
    source path/to/venv/bin/activate
    python3 -m pip install xyz
    
    If you wish to install a Python application that isn't in Homebrew,
    it may be easiest to use 'pipx install xyz', which will manage a
    virtual environment for you. You can install pipx with
    
    brew install pipx

note: If you believe this is a mistake, please contact your Python installation or OS distribution provider. You can override this, at the risk of breaking your Python installation or OS, by passing --break-system-packages.
hint: See PEP 668 for the detailed specification.
`, "pip-externally-managed", "global note, another project")

	h.note(Note{ID: "pip-compile-allow-unsafe", Project: "ottertrack", OS: "linux", Lang: "python", At: day(2022, 12, 1),
		Title:   "pip install --require-hashes fails on setuptools: recompile with --allow-unsafe",
		What:    "Docker build: ERROR: In --require-hashes mode, all requirements must have their versions pinned with ==. These do not: setuptools>=61.0 (from the sdist of one of our deps).",
		Why:     "pip-compile leaves setuptools/pip out of the output unless --allow-unsafe, but an sdist in the set needs setuptools to build, and with hashes on pip refuses an unpinned one.",
		Where:   "requirements.in, requirements.txt, Dockerfile",
		Learned: "Compile with --generate-hashes --allow-unsafe (pip-tools 7 makes allow-unsafe the default later).",
		Fix:     "pip-compile --generate-hashes --allow-unsafe -o requirements.txt requirements.in"})
	h.ask("pip-compile-allow-unsafe/1", "ottertrack", "linux", "docker build -t ottertrack:dev .", `
#9 [builder 4/6] RUN pip install --require-hashes -r requirements.txt
#9 2.871 Collecting crcmod==1.7 (from -r requirements.txt (line 31))
#9 2.902   Downloading crcmod-1.7.tar.gz (89 kB)
#9 3.118 ERROR: In --require-hashes mode, all requirements must have their versions pinned with ==. These do not:
#9 3.118     setuptools>=40.8.0 from https://files.pythonhosted.org/packages/ff/ae/f19306b5a221f6a436d8f2238d5b80925004093fa3edea59835b514d9057/setuptools-75.1.0-py3-none-any.whl
#9 ERROR: process "/bin/sh -c pip install --require-hashes -r requirements.txt" did not complete successfully: exit code: 1
`, "pip-compile-allow-unsafe", "stored: paraphrased note")
	h.ask("pip-hash-mismatch/1", "ottertrack", "linux", "pip install --require-hashes -r requirements.txt", `
Collecting numpy==1.26.4 (from -r requirements.txt (line 58))
  Downloading numpy-1.26.4-cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64.whl (18.0 MB)
ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE. If you have updated the package versions, please update the hashes. Otherwise, examine the package contents carefully; someone may have tampered with them.
    numpy==1.26.4 from https://artifacts.internal.example/pypi/packages/numpy-1.26.4-cp312-cp312-manylinux_2_17_x86_64.manylinux2014_x86_64.whl (from -r requirements.txt (line 58)):
        Expected sha256 666dbfb6ec68962c033a450943ded891bed2d54e6755e35e5835d63f4f6931d5
             Got        9d1e4a8d2f0e3b3c7aa0f6d1e8c2b5f0a41c9e7d3b6f8a2c1e0d9b7a6f5e4d3c
`, "", "never stored: same tool, another error")

	h.note(Note{ID: "conda-pytorch-cuda-channel", Project: "fernway", OS: "linux", Lang: "python", At: day(2023, 11, 14),
		Title:   "conda: PackagesNotFoundError pytorch-cuda — nvidia channel missing",
		What:    "`conda env create -f environment.yml` → PackagesNotFoundError: The following packages are not available from current channels: - pytorch-cuda=11.8",
		Why:     "pytorch-cuda lives in the pytorch channel and pulls its CUDA libs from the nvidia channel; environment.yml only listed conda-forge and defaults.",
		Where:   "environment.yml (channels)",
		Learned: "channels: [pytorch, nvidia, conda-forge], in that order, with channel_priority flexible. Pin pytorch-cuda to the CUDA the driver supports.",
		Fix:     "conda install pytorch pytorch-cuda=11.8 -c pytorch -c nvidia"})
	h.ask("conda-pytorch-cuda-channel/1", "fernway", "linux", "conda env update -f environment.yml", `
Channels:
 - conda-forge
 - defaults
Platform: linux-64
Collecting package metadata (repodata.json): done
Solving environment: failed

PackagesNotFoundError: The following packages are not available from current channels:

  - pytorch-cuda=12.1*

Current channels:

  - https://conda.anaconda.org/conda-forge
  - defaults

To search for alternate channels that may provide the conda package you're
looking for, navigate to

    https://anaconda.org

and use the search bar at the top of the page.
`, "conda-pytorch-cuda-channel", "another tool version's wording")
	h.ask("conda-faiss/1", "fernway", "linux", "conda install faiss-gpu=1.8.0", `
Channels:
 - pytorch
 - nvidia
 - conda-forge
Platform: linux-64
Collecting package metadata (repodata.json): done
Solving environment: failed

PackagesNotFoundError: The following packages are not available from current channels:

  - faiss-gpu=1.8.0*
`, "", "never stored: same kind, another object")
	h.ask("conda-init/1", "fernway", "macos", "conda activate fernway", `

CondaError: Run 'conda init' before 'conda activate'

`, "", "never stored: same tool, another error")
}
