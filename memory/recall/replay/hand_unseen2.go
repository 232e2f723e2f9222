package replay

// handUnseen2 are the cases of the second unseen part: written after all
// the tuning, by someone who had read neither the engine nor its misses,
// and only ever reported. They are about failures no other part has:
// PyTorch wheels and CUDA drivers, NVML, Hugging Face gated and offline
// downloads, NumPy 2's ABI break, wheels on Alpine, Jupyter kernels,
// OpenCV's libGL, Airflow 3 imports, dbt profiles, Snowflake key-pair
// auth, BigQuery reauthentication, PySpark versions (this file); SELinux
// labels, snap Docker and AppArmor, WSL clocks, Homebrew on Apple
// silicon, Chocolatey, Azure CLI tokens, RabbitMQ's guest user, MongoDB
// authSource, Elasticsearch's mmap count, gRPC deadlines, protobuf's
// Python runtime (hand_unseen2_ops.go); Next.js hydration, wrangler's
// Node compatibility, Metro, Electron's native modules, Sentry source
// maps, LaTeX packages, pandoc, ffmpeg encoders, ImageMagick's policy,
// Godot export templates, OpenAPI Generator (hand_unseen2_web.go); the
// notes of the last years, some replacing older ones, and the failures
// met again (hand_unseen2_more.go); the failures no note is about
// (hand_unseen2_never.go).
func handUnseen2() ([]Note, []Query) {
	h := &hand{split: Unseen2, prefix: "unseen2/"}
	unseen2ML(h)
	unseen2Data(h)
	unseen2Ops(h)
	unseen2Services(h)
	unseen2Web(h)
	unseen2Docs(h)
	unseen2Later(h)
	unseen2NeverStored(h)
	return h.notes, h.qs
}

func unseen2ML(h *hand) {
	h.note(Note{ID: "torch-cu121-driver", Project: "lumen", OS: "linux", Lang: "python", At: day(2024, 4, 9),
		Title: "torch 2.2 wheel wants a newer driver than the A10 box has",
		What:  "Training script crashes at the first .cuda(): `RuntimeError: The NVIDIA driver on your system is too old (found version 11040)`.",
		Why: "pip pulled the default torch wheel, built for CUDA 12.1; the shared A10 machine runs driver 470 (CUDA 11.4) and IT won't upgrade it " +
			"this quarter. The wheel's bundled CUDA runtime needs a driver at least as new as itself.",
		Learned: "Install from the cu118 index on that box; cu118 runs on 470 through minor-version compatibility. Pin it in requirements-gpu.txt with --index-url.",
		Fix:     "pip install torch==2.2.2 torchvision==0.17.2 --index-url https://download.pytorch.org/whl/cu118"})
	h.ask("torch-cu121-driver/train", "lumen", "linux", "python train.py --config configs/base.yaml",
		"[2024-05-02 11:20:41] loading dataset shards: 100%|██████████| 16/16 [00:03<00:00,  4.71it/s]\nTraceback (most recent call last):\n  File \"/home/ci/build/lumen/train.py\", line 88, in <module>\n    main()\n  File \"/home/ci/build/lumen/train.py\", line 61, in main\n    model = build_model(cfg).cuda()\n  File \"/home/ci/build/lumen/.venv/lib/python3.11/site-packages/torch/nn/modules/module.py\", line 911, in cuda\n    return self._apply(lambda t: t.cuda(device))\n  File \"/home/ci/build/lumen/.venv/lib/python3.11/site-packages/torch/cuda/__init__.py\", line 302, in _lazy_init\n    torch._C._cuda_init()\nRuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA driver.\n",
		"torch-cu121-driver", "unseen2: stored, stack trace")
	h.ask("torch-cu121-driver/pytest", "lumen", "linux", "pytest -x tests/gpu",
		"tests/gpu/test_attention.py F\n\n=================================== FAILURES ===================================\n_____________________________ test_flash_fallback ______________________________\n\n    def test_flash_fallback():\n>       q = torch.randn(2, 8, 128, 64, device=\"cuda\")\nE       RuntimeError: The NVIDIA driver on your system is too old (found version 11040). Please update your GPU driver by downloading and installing a new version from the URL: http://www.nvidia.com/Download/index.aspx Alternatively, go to: https://pytorch.org to install a PyTorch version that has been compiled with your version of the CUDA driver.\n\ntests/gpu/test_attention.py:14: RuntimeError\n=========================== short test summary info ============================\nFAILED tests/gpu/test_attention.py::test_flash_fallback - RuntimeError: The NVIDIA driver on your system is too old (found v...\n!!!!!!!!!!!!!!!!!!!!!!!!!! stopping after 1 failures !!!!!!!!!!!!!!!!!!!!!!!!!!!\n1 failed in 2.84s\n",
		"torch-cu121-driver", "unseen2: stored, another tool")
	h.ask("torch-no-driver-container", "lumen", "linux", "docker run --rm lumen-train:dev python -c 'import torch; print(torch.cuda.is_available())'",
		"/opt/venv/lib/python3.11/site-packages/torch/cuda/__init__.py:141: UserWarning: CUDA initialization: Found no NVIDIA driver on your system. Please check that you have an NVIDIA GPU and installed a driver from http://www.nvidia.com/Download/index.aspx (Triggered internally at ../c10/cuda/CUDAFunctions.cpp:108.)\n  return torch._C._cuda_getDeviceCount() > 0\nFalse\n",
		"", "unseen2: same tool, another error")

	h.note(Note{ID: "nvml-mismatch", Project: "lumen", Scope: "global", OS: "linux", Lang: "shell", At: day(2025, 1, 14),
		Title:   "nvidia-smi: Driver/library version mismatch after unattended-upgrades",
		What:    "nvidia-smi → Failed to initialize NVML: Driver/library version mismatch. Jobs can't see the GPUs.",
		Why:     "unattended-upgrades installed a new nvidia-driver-535 userspace overnight while the old kernel module is still loaded.",
		Learned: "Reboot (or unload/reload nvidia modules if nothing is using them). Then hold the driver packages so it doesn't happen mid-week: apt-mark hold nvidia-driver-535.",
		Fix:     "sudo reboot"})
	h.ask("nvml-mismatch/lumen", "lumen", "linux", "nvidia-smi",
		"Failed to initialize NVML: Driver/library version mismatch\nNVML library version: 535.183\n",
		"nvml-mismatch", "unseen2: stored, short tail")
	h.ask("nvml-mismatch/tidewater", "tidewater", "linux", "docker run --rm --gpus all nvidia/cuda:12.2.0-base-ubuntu22.04 nvidia-smi",
		"docker: Error response from daemon: failed to create task for container: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: error running hook #0: error running hook: exit status 1, stdout: , stderr: Auto-detected mode as 'legacy'\nnvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown.\n",
		"nvml-mismatch", "unseen2: global note, another project and tool")

	h.note(Note{ID: "hf-gated", Project: "lumen", OS: "darwin", Lang: "python", At: day(2024, 8, 1),
		Title:   "HF gated repo 401 for Llama 3.1",
		What:    "from_pretrained(\"meta-llama/Llama-3.1-8B-Instruct\") → 401, \"Cannot access gated repo\". Had a token in env but it was the old read-only one from another account.",
		Why:     "Gated repos need (a) the licence accepted on the model page with the same account and (b) that account's token. HF_TOKEN from .envrc was the personal one of the previous dev.",
		Learned: "Accept on the model page, then log in with your own token; huggingface-cli whoami shows which account is active.",
		Fix:     "huggingface-cli login --token $HF_TOKEN && huggingface-cli whoami"})
	h.ask("hf-gated/eval", "lumen", "darwin", "python eval.py --model meta-llama/Llama-3.1-8B-Instruct",
		"Traceback (most recent call last):\n  File \"/Users/kim/code/lumen/.venv/lib/python3.12/site-packages/huggingface_hub/utils/_http.py\", line 406, in hf_raise_for_status\n    response.raise_for_status()\n  File \"/Users/kim/code/lumen/.venv/lib/python3.12/site-packages/requests/models.py\", line 1024, in raise_for_status\n    raise HTTPError(http_error_msg, response=self)\nrequests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json\n\nThe above exception was the direct cause of the following exception:\n\n... 14 lines omitted ...\nOSError: You are trying to access a gated repo.\nMake sure to have access to it at https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct.\n401 Client Error. (Request ID: Root=1-66b0d6f2-4a5e0c1d2f3b4a5c6d7e8f90;1c2d3e4f-aaaa-bbbb-cccc-0123456789ab)\n\nCannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.1-8B-Instruct/resolve/main/config.json.\nAccess to model meta-llama/Llama-3.1-8B-Instruct is restricted. You must have access to it and be authenticated to access it. Please log in.\n",
		"hf-gated", "unseen2: stored")
	h.ask("hf-gated/gemma", "lumen", "linux", "huggingface-cli download google/gemma-2-9b --local-dir models/gemma-2-9b",
		"Traceback (most recent call last):\n  File \"/home/ci/build/lumen/.venv/bin/huggingface-cli\", line 8, in <module>\n    sys.exit(main())\n... 9 lines omitted ...\nhuggingface_hub.errors.GatedRepoError: 403 Client Error. (Request ID: Root=1-66c1e2a3-0b1c2d3e4f5a6b7c8d9e0f1a)\n\nCannot access gated repo for url https://huggingface.co/google/gemma-2-9b/resolve/main/.gitattributes.\nAccess to model google/gemma-2-9b is restricted and you are not in the authorized list. Visit https://huggingface.co/google/gemma-2-9b to ask for access.\n",
		"hf-gated", "unseen2: stored, another model")

	h.note(Note{ID: "hf-offline", Project: "lumen", OS: "linux", Lang: "python", At: day(2025, 3, 3),
		Title:   "air-gapped GPU node: set HF_HUB_OFFLINE",
		What:    "On gpu-03 (no egress) the eval job dies with OSError \"We couldn't connect to 'https://huggingface.co' to load this file\" even though the model is in the shared cache.",
		Why:     "Without offline mode transformers still does a HEAD request per file to check for a newer revision, and fails when it can't.",
		Learned: "Export HF_HUB_OFFLINE=1 (and HF_HOME=/mnt/shared/hf) in the job env for gpu-03; pre-fetch on the bastion with huggingface-cli download.",
		Fix:     "export HF_HUB_OFFLINE=1 HF_HOME=/mnt/shared/hf"})
	offline := "  File \"/opt/lumen/.venv/lib/python3.11/site-packages/transformers/utils/hub.py\", line 441, in cached_file\n    raise EnvironmentError(\nOSError: We couldn't connect to 'https://huggingface.co' to load this file, couldn't find it in the cached files and it looks like BAAI/bge-base-en-v1.5 is not the path to a directory containing a file named config.json.\nCheckout your internet connection or see how to run the library in offline mode at 'https://huggingface.co/docs/transformers/installation#offline-mode'.\n"
	h.ask("hf-offline/gpu03", "lumen", "linux", "srun -w gpu-03 python -m lumen.eval --model BAAI/bge-base-en-v1.5",
		"urllib3.exceptions.NewConnectionError: <urllib3.connection.HTTPSConnection object at 0x7f3a2c1b4d90>: Failed to establish a new connection: [Errno 101] Network is unreachable\n\nDuring handling of the above exception, another exception occurred:\n\n... 22 lines omitted ...\n"+offline,
		"hf-offline", "unseen2: stored")
	h.ask("hf-offline/proxy", "lumen", "darwin", "python -m lumen.eval --model BAAI/bge-base-en-v1.5",
		"requests.exceptions.ProxyError: (MaxRetryError(\"HTTPSConnectionPool(host='huggingface.co', port=443): Max retries exceeded with url: /BAAI/bge-base-en-v1.5/resolve/main/config.json (Caused by ProxyError('Unable to connect to proxy', OSError('Tunnel connection failed: 407 Proxy Authentication Required')))\"), '(Request ID: 6c7d8e9f-0a1b-2c3d-4e5f-60718293a4b5)')\n\nDuring handling of the above exception, another exception occurred:\n\n"+offline,
		"", "unseen2: same text, another cause")

	h.note(Note{ID: "jupyter-kernel-venv", Project: "lumen", OS: "darwin", Lang: "python", At: day(2023, 2, 20),
		Title:   "notebooks: kernel points at a deleted venv",
		What:    "nbconvert --execute hangs then `Kernel died before replying to kernel_info`; the kernel log says /Users/kim/code/lumen/.venv-old/bin/python: No such file or directory",
		Why:     "The 'lumen' kernelspec in ~/Library/Jupyter/kernels/lumen/kernel.json was installed from the venv I deleted when moving to 3.11; jupyter keeps the absolute path.",
		Learned: "Re-register the kernel from the current venv; `jupyter kernelspec list` shows the stale ones.",
		Fix:     ".venv/bin/python -m ipykernel install --user --name lumen --display-name 'Python (lumen)'"})
	h.ask("jupyter-kernel-venv/nbconvert", "lumen", "darwin", "jupyter nbconvert --to notebook --execute notebooks/eda.ipynb",
		"[NbConvertApp] Converting notebook notebooks/eda.ipynb to notebook\nTraceback (most recent call last):\n  File \"/Users/kim/code/lumen/.venv/lib/python3.11/site-packages/jupyter_client/manager.py\", line 87, in wrapper\n    out = await method(self, *args, **kwargs)\n... 11 lines omitted ...\n  File \"/opt/homebrew/Cellar/python@3.11/3.11.7/Frameworks/Python.framework/Versions/3.11/lib/python3.11/subprocess.py\", line 1950, in _execute_child\n    raise child_exception_type(errno_num, err_msg, err_filename)\nFileNotFoundError: [Errno 2] No such file or directory: '/Users/kim/code/lumen/.venv-old/bin/python'\n",
		"jupyter-kernel-venv", "unseen2: stored, paraphrased note")
	h.ask("jupyter-kernel-died-oom", "lumen", "linux", "papermill notebooks/train.ipynb out/train.ipynb -k python3",
		"Executing:  43%|████▎     | 9/21 [01:12<01:24,  7.04s/cell]\n[W 2024-11-19 03:12:44,901 papermill] Kernel died while waiting for execute reply.\nTraceback (most recent call last):\n  File \"/home/ci/build/lumen/.venv/bin/papermill\", line 8, in <module>\n    sys.exit(papermill())\n... 18 lines omitted ...\npapermill.exceptions.PapermillExecutionError: \n---------------------------------------------------------------------------\nDeadKernelError: Kernel died\n",
		"", "unseen2: same tool, another error")

	h.note(Note{ID: "opencv-libgl-apt", Project: "lumen", OS: "linux", Lang: "python", At: day(2021, 11, 8),
		Title:   "ImportError libGL.so.1 in the slim image",
		What:    "`import cv2` in python:3.9-slim → ImportError: libGL.so.1: cannot open shared object file: No such file or directory",
		Why:     "opencv-python links against libGL even when we never open a window; slim doesn't have it.",
		Learned: "apt-get install libgl1-mesa-glx in the Dockerfile.",
		Fix:     "apt-get update && apt-get install -y --no-install-recommends libgl1-mesa-glx"})
	h.note(Note{ID: "opencv-headless", Project: "lumen", OS: "linux", Lang: "python", At: day(2023, 7, 12), Supersedes: "opencv-libgl-apt",
		Title:   "use opencv-python-headless instead of installing libGL",
		What:    "The bookworm base image broke the old libGL workaround: `E: Package 'libgl1-mesa-glx' has no installation candidate`.",
		Why:     "Debian 12 dropped the transitional libgl1-mesa-glx package. And we never needed GUI support: the headless wheel doesn't link libGL at all.",
		Where:   "docker/train.Dockerfile, requirements.txt",
		Learned: "Replace opencv-python with opencv-python-headless (same version) and delete the apt line. Watch for a transitive opencv-python (albumentations pulls it) — uninstall it after.",
		Fix:     "pip uninstall -y opencv-python && pip install opencv-python-headless==4.8.0.74"})
	h.ask("opencv/bookworm-apt", "lumen", "linux", "docker build -f docker/train.Dockerfile -t lumen-train:dev .",
		"#7 [3/8] RUN apt-get update && apt-get install -y --no-install-recommends libgl1-mesa-glx\n#7 0.412 Get:1 http://deb.debian.org/debian bookworm InRelease [151 kB]\n#7 1.902 Reading package lists...\n#7 2.530 Reading package lists...\n#7 2.611 Building dependency tree...\n#7 2.644 Reading state information...\n#7 2.652 Package libgl1-mesa-glx is not available, but is referred to by another package.\n#7 2.652 This may mean that the package is missing, has been obsoleted, or\n#7 2.652 is only available from another source\n#7 2.652 \n#7 2.655 E: Package 'libgl1-mesa-glx' has no installation candidate\n#7 ERROR: process \"/bin/sh -c apt-get update && apt-get install -y --no-install-recommends libgl1-mesa-glx\" did not complete successfully: exit code: 100\n",
		"opencv-headless", "unseen2: superseded, declared, the old fix's own error", "opencv-libgl-apt")
	h.ask("opencv/import", "lumen", "linux", "docker run --rm lumen-infer:dev python -m lumen.serve",
		"Traceback (most recent call last):\n  File \"<frozen runpy>\", line 189, in _run_module_as_main\n  File \"<frozen runpy>\", line 112, in _get_module_details\n  File \"/app/lumen/serve/__init__.py\", line 3, in <module>\n    from .preprocess import letterbox\n  File \"/app/lumen/serve/preprocess.py\", line 1, in <module>\n    import cv2\n  File \"/opt/venv/lib/python3.11/site-packages/cv2/__init__.py\", line 181, in <module>\n    bootstrap()\n  File \"/opt/venv/lib/python3.11/site-packages/cv2/__init__.py\", line 153, in bootstrap\n    native_module = importlib.import_module(\"cv2\")\n  File \"/usr/local/lib/python3.11/importlib/__init__.py\", line 126, in import_module\n    return _bootstrap._gcd_import(name[level:], package, level)\nImportError: libGL.so.1: cannot open shared object file: No such file or directory\n",
		"opencv-headless", "unseen2: superseded, declared", "opencv-libgl-apt")

	h.note(Note{ID: "lumen-weights-layout", Project: "lumen", OS: "linux", Lang: "python", At: day(2025, 6, 2), Type: "decision", NoFailure: true,
		Title:   "where model weights live",
		What:    "Checkpoints go to s3://lumen-artifacts/ckpt/<run-id>/, never into the repo or the image. The serve image downloads the one named in MODEL_URI at start and verifies its sha256 from the run manifest.",
		Why:     "Images with baked-in weights were 14 GB and every retrain meant a new image; the manifest check catches half-uploaded checkpoints.",
		Learned: "make fetch-weights RUN=<id> for local work."})
}

func unseen2Data(h *hand) {
	h.note(Note{ID: "numpy2-pin", Project: "tidewater", OS: "linux", Lang: "python", At: day(2024, 6, 18),
		Title: "numpy 2.0 broke pyarrow import in the loader",
		What: "Fresh venv → loader fails at import:\n```\nA module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.0.0 as it may crash. To support both 1.x and 2.x\nversions of NumPy, modules must be compiled with NumPy 2.0.\n```\n" +
			"followed by AttributeError: _ARRAY_API not found from pyarrow.",
		Why:     "numpy 2.0 came out on the 16th; requirements had numpy unpinned and pyarrow==14.0.2, whose wheels are built against 1.x.",
		Learned: "Pinned numpy<2 in requirements.txt until pyarrow is upgraded.",
		Fix:     "pip install 'numpy<2'"})
	h.note(Note{ID: "numpy2-pyarrow17", Project: "tidewater", OS: "linux", Lang: "python", At: day(2025, 1, 28), ProseOver: "numpy2-pin",
		Title:   "dropped the numpy<2 pin: upgrade pyarrow instead",
		What:    "The numpy<2 pin from last June is obsolete — forget it. dbt-snowflake 1.9 and the new pandas need numpy 2, and with the pin pip resolves to ancient pandas.",
		Why:     "The 'compiled using NumPy 1.x cannot be run in NumPy 2' error is pyarrow < 16; pyarrow 17 wheels are built against numpy 2 and work with both.",
		Learned: "Upgrade the compiled package, don't pin numpy. `pip list | grep -i -e numpy -e arrow` first.",
		Fix:     "pip install 'pyarrow>=17' 'numpy>=2'"})
	h.ask("numpy2/loader", "tidewater", "linux", "python -m tidewater.load --date 2025-02-03",
		"\nA module that was compiled using NumPy 1.x cannot be run in\nNumPy 2.1.3 as it may crash. To support both 1.x and 2.x\nversions of NumPy, modules must be compiled with NumPy 2.0.\nSome module may need to rebuild instead e.g. with 'pybind11>=2.12'.\n\nIf you are a user of the module, the easiest solution will be to\ndowngrade to 'numpy<2' or try to upgrade the affected module.\nWe expect that some modules will need time to support NumPy 2.\n\nTraceback (most recent call last):  File \"<frozen runpy>\", line 198, in _run_module_as_main\n  File \"/home/ci/build/tidewater/tidewater/load.py\", line 7, in <module>\n    import pyarrow.parquet as pq\n  File \"/home/ci/build/tidewater/.venv/lib/python3.12/site-packages/pyarrow/__init__.py\", line 65, in <module>\n    import pyarrow.lib as _lib\nAttributeError: _ARRAY_API not found\n",
		"numpy2-pyarrow17", "unseen2: superseded in prose", "numpy2-pin")
	h.ask("numpy2/dtype-size", "tidewater", "darwin", "pytest tests/test_transform.py",
		"ImportError while loading conftest '/Users/kim/code/tidewater/tests/conftest.py'.\ntests/conftest.py:3: in <module>\n    import pandas as pd\n.venv/lib/python3.12/site-packages/pandas/__init__.py:49: in <module>\n    from pandas.core.api import (\n.venv/lib/python3.12/site-packages/pandas/core/api.py:1: in <module>\n    from pandas._libs import (\n.venv/lib/python3.12/site-packages/pandas/_libs/__init__.py:18: in <module>\n    from pandas._libs.interval import Interval\ninterval.pyx:1: in init pandas._libs.interval\n    ???\nE   ValueError: numpy.dtype size changed, may indicate binary incompatibility. Expected 96 from C header, got 88 from PyObject\n",
		"", "unseen2: same message, another object")

	h.note(Note{ID: "alpine-pyarrow", Project: "tidewater", OS: "linux", Lang: "python", At: day(2023, 4, 4),
		Title:   "Alpine image: pip builds pyarrow from source and fails",
		What:    "docker build on python:3.11-alpine sat for 9 minutes in 'Building wheel for pyarrow (pyproject.toml)' and then `Could not build wheels for pyarrow, which is required to install pyproject.toml-based projects` (cmake couldn't find Arrow C++).",
		Why:     "There's no musllinux wheel for pyarrow (nor for half our stack), so pip falls back to the sdist, which wants a full Arrow C++ build.",
		Where:   "docker/loader.Dockerfile",
		Learned: "Not worth fighting musl for a data image: switched to python:3.11-slim-bookworm, glibc manylinux wheels just install. Image got bigger by 40 MB, build went from 10 min to 50 s.",
		Fix:     "sed -i 's/python:3.11-alpine/python:3.11-slim-bookworm/' docker/loader.Dockerfile"})
	h.ask("alpine-pyarrow/build", "tidewater", "linux", "docker build -f docker/loader.Dockerfile .",
		"#9 41.27   Building wheel for pyarrow (pyproject.toml): started\n#9 562.9   Building wheel for pyarrow (pyproject.toml): finished with status 'error'\n#9 563.0   error: subprocess-exited-with-error\n#9 563.0   \n#9 563.0   × Building wheel for pyarrow (pyproject.toml) did not run successfully.\n#9 563.0   │ exit code: 1\n#9 563.0   ╰─> [312 lines of output]\n#9 563.0       -- Found Python3: /usr/local/bin/python3 (found version \"3.11.9\") found components: Interpreter Development.Module NumPy\n#9 563.0       CMake Error at CMakeLists.txt:268 (find_package):\n#9 563.0         By not providing \"FindArrow.cmake\" in CMAKE_MODULE_PATH this project has\n#9 563.0         asked CMake to find a package configuration file provided by \"Arrow\", but\n#9 563.0         CMake did not find one.\n#9 563.0       [end of output]\n#9 563.0   \n#9 563.0   note: This error originated from a subprocess, and is likely not a problem with pip.\n#9 563.0   ERROR: Failed building wheel for pyarrow\n#9 563.1 ERROR: Could not build wheels for pyarrow, which is required to install pyproject.toml-based projects\n#9 ERROR: process \"/bin/sh -c pip install --no-cache-dir -r requirements.txt\" did not complete successfully: exit code: 1\n",
		"alpine-pyarrow", "unseen2: stored, docker build log")
	h.ask("alpine-psycopg-pg-config", "tidewater", "linux", "docker build -f docker/api.Dockerfile .",
		"#8 12.40   × Getting requirements to build wheel did not run successfully.\n#8 12.40   │ exit code: 1\n#8 12.40   ╰─> [23 lines of output]\n#8 12.40       running egg_info\n#8 12.40       writing psycopg2.egg-info/PKG-INFO\n#8 12.40       \n#8 12.40       Error: pg_config executable not found.\n#8 12.40       \n#8 12.40       pg_config is required to build psycopg2 from source.  Please add the directory\n#8 12.40       containing pg_config to the $PATH or specify the full executable path with the\n#8 12.40       option:\n#8 12.40       \n#8 12.40           python setup.py build_ext --pg-config /path/to/pg_config build ...\n#8 12.40       [end of output]\n#8 12.41 error: subprocess-exited-with-error\n",
		"", "unseen2: same tool, another error")

	h.note(Note{ID: "airflow3-imports", Project: "tidewater", OS: "linux", Lang: "python", At: day(2025, 5, 6),
		Title:   "Airflow 3: Broken DAG, airflow.operators.python gone",
		What:    "After the 3.0 upgrade every DAG shows Broken DAG: `ModuleNotFoundError: No module named 'airflow.operators.python'`.",
		Why:     "Airflow 3 moved the core operators into the standard provider; the 2.x import paths were removed, not deprecated.",
		Where:   "dags/*.py",
		Learned: "Install apache-airflow-providers-standard and import PythonOperator/BashOperator from airflow.providers.standard.operators.*; `ruff check --select AIR3` lists every old import.",
		Fix:     "sed -i 's/from airflow.operators.python import/from airflow.providers.standard.operators.python import/' dags/*.py"})
	h.ask("airflow3/import-errors", "tidewater", "linux", "airflow dags list-import-errors",
		"filepath                              | error\n======================================+=========================================================================\n/opt/airflow/dags/orders_daily.py     | Traceback (most recent call last):\n                                      |   File \"<frozen importlib._bootstrap>\", line 488, in _call_with_frames_removed\n                                      |   File \"/opt/airflow/dags/orders_daily.py\", line 5, in <module>\n                                      |     from airflow.operators.python import PythonOperator\n                                      | ModuleNotFoundError: No module named 'airflow.operators.python'\n                                      |\n/opt/airflow/dags/refunds_hourly.py   | Traceback (most recent call last):\n                                      |   File \"/opt/airflow/dags/refunds_hourly.py\", line 4, in <module>\n                                      |     from airflow.operators.bash import BashOperator\n                                      | ModuleNotFoundError: No module named 'airflow.operators.bash'\n",
		"airflow3-imports", "unseen2: stored")
	h.ask("airflow3/quarry", "quarry", "linux", "pytest tests/test_dag_integrity.py",
		"FAILED tests/test_dag_integrity.py::test_no_import_errors - AssertionError: DAG import errors: {'/home/ci/build/quarry/dags/ingest.py': \"Traceback (most recent call last):\\n  File \\\"/home/ci/build/quarry/dags/ingest.py\\\", line 3, in <module>\\n    from airflow.operators.python import PythonOperator\\nModuleNotFoundError: No module named 'airflow.operators.python'\\n\"}\n1 failed, 4 passed in 6.12s\n",
		"", "unseen2: another project's project note")

	h.note(Note{ID: "dbt-profiles-dir", Project: "tidewater", OS: "darwin", Lang: "sql", At: day(2022, 3, 15),
		Title:   "dbt in CI: Could not find profile named 'tidewater'",
		What:    "dbt run works on my laptop, CI says Runtime Error Could not find profile named 'tidewater'",
		Why:     "Locally dbt reads ~/.dbt/profiles.yml; CI has none. The repo's ci/profiles.yml (env_var based) is only read if DBT_PROFILES_DIR points at it.",
		Learned: "Set DBT_PROFILES_DIR in the workflow env, or pass --profiles-dir ci.",
		Fix:     "export DBT_PROFILES_DIR=$PWD/ci"})
	h.ask("dbt-profiles-dir/ci", "tidewater", "linux", "dbt build --target ci",
		"\x1b[0m14:02:11  Running with dbt=1.7.4\n\x1b[0m14:02:11  Encountered an error:\nRuntime Error\n  Could not find profile named 'tidewater'\n",
		"dbt-profiles-dir", "unseen2: stored, ANSI colours")
	h.ask("dbt-missing-ref", "tidewater", "linux", "dbt build --target ci",
		"\x1b[0m14:09:40  Running with dbt=1.7.4\n\x1b[0m14:09:41  Registered adapter: snowflake=1.7.1\n\x1b[0m14:09:42  Encountered an error:\nCompilation Error\n  Model 'model.tidewater.fct_refunds' (models/marts/fct_refunds.sql) depends on a node named 'stg_refund_lines' which was not found\n",
		"", "unseen2: same tool, another error")

	h.note(Note{ID: "snowflake-jwt", Project: "tidewater", Scope: "global", OS: "linux", Lang: "python", At: day(2024, 2, 27),
		Title: "Snowflake key-pair auth: JWT token is invalid",
		What:  "`250001 (08001): Failed to connect to DB: xy12345.eu-west-1.snowflakecomputing.com:443. JWT token is invalid.` for the svc_loader user after rotating its key.",
		Why: "The new public key was never set on the user (the rotation PR only changed the secret in Vault). Snowflake compares the JWT's fingerprint with RSA_PUBLIC_KEY_FP of the user. " +
			"Same error also if the account identifier in the JWT is in the wrong form (org-account vs locator).",
		Learned: "DESC USER svc_loader and compare RSA_PUBLIC_KEY_FP with `openssl rsa -pubin -in rsa_key.pub -outform DER | openssl dgst -sha256 -binary | openssl enc -base64`.",
		Fix:     "snowsql -q \"ALTER USER svc_loader SET RSA_PUBLIC_KEY='$(grep -v -- ----- rsa_key.pub | tr -d '\\n')'\""})
	h.ask("snowflake-jwt/dbt", "tidewater", "linux", "dbt debug --target prod",
		"\x1b[0m09:12:03  Connection:\n\x1b[0m09:12:03    account: xy12345.eu-west-1\n\x1b[0m09:12:03    user: SVC_LOADER\n\x1b[0m09:12:03    database: ANALYTICS\n\x1b[0m09:12:03    authenticator: None\n\x1b[0m09:12:04  Registered adapter: snowflake=1.7.1\n\x1b[0m09:12:06    Connection test: [\x1b[31mERROR\x1b[0m]\n\n\x1b[0m09:12:06  \x1b[31m1 check failed:\x1b[0m\n\x1b[0m09:12:06  dbt was unable to connect to the specified database.\nThe database returned the following error:\n\n  >Database Error\n  250001 (08001): Failed to connect to DB: xy12345.eu-west-1.snowflakecomputing.com:443. JWT token is invalid. [4f1a9c2e-0b3d-4e6f-8a7b-1c2d3e4f5a6b]\n",
		"snowflake-jwt", "unseen2: stored")
	h.ask("snowflake-jwt/quarry", "quarry", "darwin", "python scripts/backfill.py --since 2024-01-01",
		"Traceback (most recent call last):\n  File \"/Users/kim/code/quarry/scripts/backfill.py\", line 41, in <module>\n    conn = snowflake.connector.connect(**cfg)\n... 6 lines omitted ...\n  File \"/Users/kim/code/quarry/.venv/lib/python3.11/site-packages/snowflake/connector/auth/_auth.py\", line 394, in authenticate\n    Error.errorhandler_wrapper(\nsnowflake.connector.errors.DatabaseError: 250001 (08001): None: Failed to connect to DB: qq77001.us-east-1.snowflakecomputing.com:443. JWT token is invalid. [7e8f9a0b-1c2d-3e4f-5a6b-7c8d9e0f1a2b]\n",
		"snowflake-jwt", "unseen2: global note, another project and tool")

	h.note(Note{ID: "bq-adc-reauth", Project: "tidewater", OS: "darwin", Lang: "python", At: day(2023, 9, 19),
		Title:   "BigQuery from laptop: RefreshError, reauthentication needed",
		What:    "Local backfill against BigQuery → google.auth.exceptions.RefreshError: Reauthentication is needed. Please run `gcloud auth application-default login` to reauthenticate.",
		Why:     "Workspace enforces reauth every 16h for user ADC credentials; nothing is wrong with the project or the dataset ACL.",
		Learned: "Just redo ADC login; `gcloud auth login` alone doesn't refresh application-default credentials.",
		Fix:     "gcloud auth application-default login"})
	h.ask("bq-adc-reauth/backfill", "tidewater", "darwin", "python -m tidewater.backfill --source bq --days 7",
		"  File \"/Users/kim/code/tidewater/.venv/lib/python3.11/site-packages/google/oauth2/_client.py\", line 270, in _token_endpoint_request\n    _handle_error_response(response_data, retryable_error)\n  File \"/Users/kim/code/tidewater/.venv/lib/python3.11/site-packages/google/oauth2/_client.py\", line 69, in _handle_error_response\n    raise exceptions.RefreshError(\ngoogle.auth.exceptions.RefreshError: ('invalid_grant: Bad Request', {'error': 'invalid_grant', 'error_description': 'Bad Request'})\n\nDuring handling of the above exception, another exception occurred:\n\n... 9 lines omitted ...\ngoogle.auth.exceptions.RefreshError: Reauthentication is needed. Please run `gcloud auth application-default login` to reauthenticate.\n",
		"bq-adc-reauth", "unseen2: stored")
	h.ask("bq-sa-key-deleted", "tidewater", "linux", "python -m tidewater.backfill --source bq --days 1",
		"2024-10-02 03:00:14,882 INFO using credentials from GOOGLE_APPLICATION_CREDENTIALS=/var/run/secrets/gcp/loader-sa.json (service_account loader@tidewater-prod.iam.gserviceaccount.com)\nTraceback (most recent call last):\n... 12 lines omitted ...\n  File \"/opt/tidewater/.venv/lib/python3.11/site-packages/google/oauth2/_client.py\", line 69, in _handle_error_response\n    raise exceptions.RefreshError(\ngoogle.auth.exceptions.RefreshError: ('invalid_grant: Invalid JWT Signature.', {'error': 'invalid_grant', 'error_description': 'Invalid JWT Signature.'})\n",
		"", "unseen2: same text, another cause")

	h.note(Note{ID: "pyspark-worker-python", Project: "tidewater", OS: "linux", Lang: "python", At: day(2022, 10, 11),
		Title:   "PySpark: worker Python 3.8 vs driver 3.10",
		What:    "Spark job on the EMR cluster: `Python in worker has different version 3.8 than that in driver 3.10, PySpark cannot run with different minor versions.`",
		Why:     "The driver runs in our venv (3.10) but executors use the node's /usr/bin/python3 (3.8) because PYSPARK_PYTHON wasn't set for the executors.",
		Learned: "Ship the venv as an archive and point both at it via spark.pyspark.python; or at least set PYSPARK_PYTHON=python3.10 in spark-env.",
		Fix:     "spark-submit --archives venv.tar.gz#environment --conf spark.pyspark.python=./environment/bin/python jobs/sessionize.py"})
	h.ask("pyspark-worker-python/submit", "tidewater", "linux", "spark-submit --master yarn jobs/sessionize.py",
		"22/11/03 09:41:27 WARN TaskSetManager: Lost task 0.0 in stage 1.0 (TID 1) (ip-10-0-3-17.eu-west-1.compute.internal executor 2): org.apache.spark.api.python.PythonException: Traceback (most recent call last):\n  File \"/mnt/yarn/usercache/hadoop/appcache/application_1667461234567_0042/container_1667461234567_0042_01_000003/pyspark.zip/pyspark/worker.py\", line 573, in main\n    raise RuntimeError(\nRuntimeError: Python in worker has different version 3.8 than that in driver 3.10, PySpark cannot run with different minor versions. Please check environment variables PYSPARK_PYTHON and PYSPARK_DRIVER_PYTHON are correctly set.\n\n\tat org.apache.spark.api.python.BasePythonRunner$ReaderIterator.handlePythonException(PythonRunner.scala:559)\n\tat org.apache.spark.api.python.PythonRunner$$anon$3.read(PythonRunner.scala:765)\n\tat org.apache.spark.api.python.PythonRunner$$anon$3.read(PythonRunner.scala:747)\n",
		"pyspark-worker-python", "unseen2: stored, stack trace")
}
