package replay

// unseen2Later are the notes written in the part's last years, some of
// them replacing older ones, and the failures met again after them.
func unseen2Later(h *hand) {
	h.note(Note{ID: "torch-sm120", Project: "lumen", OS: "linux", Lang: "python", At: day(2026, 2, 10),
		Title:   "new 5090 workstation: torch doesn't support sm_120",
		What:    "torch on the new RTX 5090 box warns the GPU's capability isn't supported by the installed build and then every kernel fails (\"no kernel image is available for execution on the device\").",
		Why:     "Blackwell consumer cards are sm_120; only the CUDA 12.8 wheels (torch 2.7+) ship kernels for it, and our lock had torch 2.5.1+cu124.",
		Learned: "On that box install from the cu128 index; the A10 boxes stay on cu118. Two lock files now, requirements-gpu-blackwell.txt.",
		Fix:     "pip install 'torch>=2.7' --index-url https://download.pytorch.org/whl/cu128"})
	h.ask("torch-sm120/train", "lumen", "linux", "python train.py --config configs/base.yaml",
		"/home/ci/build/lumen/.venv/lib/python3.12/site-packages/torch/cuda/__init__.py:235: UserWarning: \nNVIDIA GeForce RTX 5090 with CUDA capability sm_120 is not compatible with the current PyTorch installation.\nThe current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90.\nIf you want to use the NVIDIA GeForce RTX 5090 GPU with PyTorch, please check the instructions at https://pytorch.org/get-started/locally/\n\n  warnings.warn(\nTraceback (most recent call last):\n  File \"/home/ci/build/lumen/train.py\", line 61, in main\n    model = build_model(cfg).cuda()\n... 7 lines omitted ...\nRuntimeError: CUDA error: no kernel image is available for execution on the device\nCUDA kernel errors might be asynchronously reported at some other API call, so the stacktrace below might be incorrect.\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1\n",
		"torch-sm120", "unseen2: stored, paraphrased note")
	h.ask("torch-sm120/k80", "lumen", "linux", "python -c 'import torch; torch.zeros(1).cuda()'",
		"/opt/lumen/.venv/lib/python3.12/site-packages/torch/cuda/__init__.py:235: UserWarning: \nTesla K80 with CUDA capability sm_37 is not compatible with the current PyTorch installation.\nThe current PyTorch install supports CUDA capabilities sm_50 sm_60 sm_70 sm_75 sm_80 sm_86 sm_90 sm_100 sm_120.\nIf you want to use the Tesla K80 GPU with PyTorch, please check the instructions at https://pytorch.org/get-started/locally/\n\n  warnings.warn(\nRuntimeError: CUDA error: no kernel image is available for execution on the device\n",
		"", "unseen2: same message, another object")

	h.note(Note{ID: "hf-auth-login", Project: "lumen", OS: "darwin", Lang: "python", At: day(2026, 1, 6), Supersedes: "hf-gated",
		Title:   "gated repos: `hf auth login` now, huggingface-cli is gone",
		What:    "Gated-repo 401s again after the huggingface_hub 1.x upgrade, and the old `huggingface-cli login` fix only prints a deprecation notice / isn't installed any more.",
		Why:     "huggingface_hub replaced the huggingface-cli entry point with `hf`; the token store is the same, so logging in once with the new command is enough.",
		Learned: "`hf auth whoami` to check the account; licence still has to be accepted on the model page.",
		Fix:     "hf auth login --token $HF_TOKEN && hf auth whoami"})
	h.ask("hf-auth-login/eval", "lumen", "darwin", "python eval.py --model meta-llama/Llama-3.3-70B-Instruct",
		"$ huggingface-cli login --token $HF_TOKEN\n⚠️  Warning: 'huggingface-cli login' is deprecated. Use 'hf auth login' instead.\n$ python eval.py --model meta-llama/Llama-3.3-70B-Instruct\nTraceback (most recent call last):\n... 16 lines omitted ...\nhuggingface_hub.errors.GatedRepoError: 401 Client Error. (Request ID: Root=1-695c1a2b-3c4d5e6f7a8b9c0d1e2f3a4b)\n\nCannot access gated repo for url https://huggingface.co/meta-llama/Llama-3.3-70B-Instruct/resolve/main/config.json.\nAccess to model meta-llama/Llama-3.3-70B-Instruct is restricted. You must have access to it and be authenticated to access it. Please log in.\n",
		"hf-auth-login", "unseen2: superseded, declared", "hf-gated")

	h.note(Note{ID: "dbt-profiles-root", Project: "tidewater", OS: "linux", Lang: "sql", At: day(2025, 7, 8), ProseOver: "dbt-profiles-dir",
		Title: "profiles.yml lives at the repo root now",
		What: "Moved ci/profiles.yml to the project root; dbt (1.3+) looks in the current directory before ~/.dbt. " +
			"The old DBT_PROFILES_DIR=$PWD/ci export is obsolete, take it out of workflows and .envrc files — it now points at a directory that no longer has a profiles.yml.",
		Why:     "Half the team had DBT_PROFILES_DIR in their .envrc from the old note, so their local runs silently used the CI profile.",
		Learned: "If it says Could not find profile named 'tidewater', unset DBT_PROFILES_DIR and run from the repo root.",
		Fix:     "unset DBT_PROFILES_DIR && cd \"$(git rev-parse --show-toplevel)\" && dbt debug"})
	h.ask("dbt-profiles/after-move", "tidewater", "darwin", "dbt run --select marts",
		"\x1b[0m10:31:52  Running with dbt=1.9.1\n\x1b[0m10:31:52  Encountered an error:\nRuntime Error\n  Could not find profile named 'tidewater'\n",
		"dbt-profiles-root", "unseen2: superseded in prose", "dbt-profiles-dir")

	h.note(Note{ID: "spark-jdk21", Project: "tidewater", OS: "darwin", Lang: "python", At: day(2026, 3, 17),
		Title:   "local pyspark dies on JDK 21 (DirectByteBuffer not available)",
		What:    "pyspark tests on the Mac blow up in the JVM with something about sun.misc.Unsafe / DirectByteBuffer.<init>(long, int) not being available.",
		Why:     "brew upgraded openjdk to 21 and JAVA_HOME follows it; our Spark 3.3 pin supports Java 8/11/17 only.",
		Learned: "Point JAVA_HOME at 17 for this repo (.envrc); bumping to Spark 3.5 is the real fix, tracked separately.",
		Fix:     "export JAVA_HOME=$(/usr/libexec/java_home -v 17)"})
	h.ask("spark-jdk21/pytest", "tidewater", "darwin", "pytest tests/spark -x",
		"E   py4j.protocol.Py4JJavaError: An error occurred while calling None.org.apache.spark.api.java.JavaSparkContext.\nE   : java.lang.ExceptionInInitializerError\nE   \tat org.apache.spark.unsafe.array.ByteArrayMethods.<clinit>(ByteArrayMethods.java:56)\nE   \tat org.apache.spark.internal.config.package$.<init>(package.scala:1095)\nE   \tat org.apache.spark.SparkConf$.<init>(SparkConf.scala:654)\nE   Caused by: java.lang.IllegalStateException: java.lang.NoSuchMethodException: java.nio.DirectByteBuffer.<init>(long,int)\nE   \tat org.apache.spark.unsafe.Platform.<clinit>(Platform.java:113)\nE   \t... 29 more\n\n.venv/lib/python3.11/site-packages/py4j/protocol.py:326: Py4JJavaError\n",
		"spark-jdk21", "unseen2: stored, paraphrased note")

	h.note(Note{ID: "grpc-max-recv", Project: "switchyard", OS: "linux", Lang: "go", At: day(2026, 4, 21),
		Title:   "catalog export: grpc received message larger than max",
		What:    "ExportCatalog started failing for the big tenant — ResourceExhausted, message larger than the 4 MiB default.",
		Why:     "One tenant's catalog reply is ~6 MB; grpc-go's default receive limit is 4 MiB per message.",
		Where:   "internal/clients/catalog.go",
		Learned: "Made ExportCatalog server-streaming in pages of 500 items instead of raising MaxCallRecvMsgSize; raising it just moves the cliff."})
	h.ask("grpc-max-recv/export", "switchyard", "linux", "go run ./cmd/export --tenant acme-eu",
		"2026/04/22 07:12:55 exporting catalog for tenant acme-eu\n2026/04/22 07:12:58 export: catalog.ExportCatalog: rpc error: code = ResourceExhausted desc = grpc: received message larger than max (6312908 vs. 4194304)\nexit status 1\n",
		"grpc-max-recv", "unseen2: stored")

	h.note(Note{ID: "rabbit-inequivalent-arg", Project: "switchyard", OS: "linux", Lang: "python", At: day(2025, 9, 30),
		Title:   "PRECONDITION_FAILED inequivalent arg 'x-queue-type' after quorum switch",
		What:    "Workers crash on start with `PRECONDITION_FAILED - inequivalent arg 'x-queue-type' for queue 'orders.created' in vhost '/': received the value 'quorum' of type 'longstr' but current is none`.",
		Why:     "We changed the declaration to quorum queues but the classic queue of the same name still exists on the broker; a queue's type can't change in place.",
		Learned: "Drain and delete the classic queue (or declare under a new name and shovel), then let the workers redeclare. On the shared broker, coordinate: other consumers still declare it classic.",
		Fix:     "docker compose exec broker rabbitmqctl delete_queue orders.created"})
	h.ask("rabbit-inequivalent/worker", "switchyard", "linux", "docker compose up worker",
		"worker-1  | Traceback (most recent call last):\nworker-1  |   File \"/app/switchyard/worker.py\", line 31, in <module>\nworker-1  |     ch.queue_declare(queue=\"orders.created\", durable=True, arguments={\"x-queue-type\": \"quorum\"})\nworker-1  |   File \"/usr/local/lib/python3.12/site-packages/pika/adapters/blocking_connection.py\", line 2522, in queue_declare\nworker-1  |     self._flush_output(declare_ok_result.is_ready)\nworker-1  | pika.exceptions.ChannelClosedByBroker: (406, \"PRECONDITION_FAILED - inequivalent arg 'x-queue-type' for queue 'orders.created' in vhost '/': received the value 'quorum' of type 'longstr' but current is none\")\nworker-1 exited with code 1\n",
		"rabbit-inequivalent-arg", "unseen2: stored, stack trace")
	h.ask("rabbit-inequivalent/dlx", "switchyard", "linux", "docker compose up refunds",
		"refunds-1  | pika.exceptions.ChannelClosedByBroker: (406, \"PRECONDITION_FAILED - inequivalent arg 'x-dead-letter-exchange' for queue 'refunds.requested' in vhost '/': received the value 'refunds.dlx' of type 'longstr' but current is none\")\nrefunds-1 exited with code 1\n",
		"", "unseen2: same message, another object")

	h.ask("ffmpeg-fdk-aac", "quillmark", "linux", "python -m quillmark.screencast render docs/tour.yaml --audio narration.wav",
		"ffmpeg version 6.1.1 Copyright (c) 2000-2023 the FFmpeg developers\n  configuration: --prefix=/home/ci/miniforge3/envs/quillmark --enable-gpl --enable-libx264 --enable-libopenh264 --enable-libvpx\nInput #1, wav, from 'narration.wav':\n  Duration: 00:01:12.40, bitrate: 1536 kb/s\nUnknown encoder 'libfdk_aac'\n",
		"", "unseen2: same message, another object")
	h.ask("es-file-descriptors", "switchyard", "linux", "docker compose up es01",
		"es01-1  | {\"@timestamp\":\"2024-04-03T09:20:11.402Z\", \"log.level\":\"ERROR\", \"message\":\"node validation exception\\n[1] bootstrap checks failed. You must address the points described in the following [1] lines before starting Elasticsearch.\\nbootstrap check failure [1] of [1]: max file descriptors [4096] for elasticsearch process is too low, increase to at least [65535]\", \"ecs.version\": \"1.2.0\",\"service.name\":\"ES_ECS\"}\nes01-1  | ERROR: Elasticsearch did not exit normally - check the logs at /usr/share/elasticsearch/logs/switchyard.log\nes01-1 exited with code 78\n",
		"", "unseen2: same message, another object")

	// Met again later, printed by other tools.
	h.ask("airflow3/dags-test", "tidewater", "linux", "airflow dags test refunds_hourly 2025-05-07",
		"[2025-05-07T10:02:11.118+0000] {dagbag.py:588} INFO - Filling up the DagBag from /opt/airflow/dags\n[2025-05-07T10:02:11.402+0000] {dagbag.py:387} ERROR - Failed to import: /opt/airflow/dags/refunds_hourly.py\nTraceback (most recent call last):\n  File \"/opt/airflow/dags/refunds_hourly.py\", line 4, in <module>\n    from airflow.operators.bash import BashOperator\nModuleNotFoundError: No module named 'airflow.operators.bash'\nError: Dag 'refunds_hourly' could not be found; either it does not exist or it failed to parse.\n",
		"airflow3-imports", "unseen2: stored, another command")
	h.ask("sentry-org-slug/next-build", "paperkite", "linux", "npm run build",
		"> paperkite@2.4.0 build\n> next build\n\n  ▲ Next.js 14.0.4\n\n   Creating an optimized production build ...\n[sentry-webpack-plugin] Info: Sending telemetry data on issues and performance to Sentry. To disable telemetry, set `options.telemetry` to `false`.\n> Found 186 files\n> Analyzing 186 sources\nerror: Project not found. Ensure that you configured the correct project and organization.\n\nAdd --log-level=[info|debug] or export SENTRY_LOG_LEVEL=[info|debug] to see more output.\nFailed to compile.\n",
		"sentry-org-slug", "unseen2: stored, another tool")
	h.ask("imagemagick-pdf/wand", "quillmark", "linux", "python -m quillmark.covers build",
		"Traceback (most recent call last):\n  File \"/home/ci/build/quillmark/quillmark/covers.py\", line 27, in build\n    with Image(filename=f\"{pdf}[0]\", resolution=150) as img:\n  File \"/home/ci/build/quillmark/.venv/lib/python3.11/site-packages/wand/image.py\", line 9404, in __init__\n    self.read(filename=filename)\n  File \"/home/ci/build/quillmark/.venv/lib/python3.11/site-packages/wand/image.py\", line 10156, in read\n    self.raise_exception()\nwand.exceptions.PolicyError: attempt to perform an operation not allowed by the security policy `PDF' @ error/constitute.c/IsCoderAuthorized/421\n",
		"imagemagick-pdf-policy", "unseen2: stored, another tool")
	h.ask("metro-reset-cache/android", "mosswood", "darwin", "cd android && ./gradlew assembleRelease",
		"> Task :app:createBundleReleaseJsAndAssets FAILED\nerror Unable to resolve module @mosswood/ui from /Users/kim/code/mosswood/apps/mobile/src/screens/Settings.tsx: @mosswood/ui could not be found within the project or in these directories:\n  node_modules\n  ../../node_modules\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':app:createBundleReleaseJsAndAssets'.\n> Process 'command 'node'' finished with non-zero exit value 1\n",
		"metro-reset-cache", "unseen2: stored, another command")
	h.ask("electron-rebuild/mac", "mosswood", "darwin", "npm run start -w apps/desktop",
		"App threw an error during load\nError: The module '/Users/kim/code/mosswood/apps/desktop/node_modules/better-sqlite3/build/Release/better_sqlite3.node'\nwas compiled against a different Node.js version using\nNODE_MODULE_VERSION 115. This version of Node.js requires\nNODE_MODULE_VERSION 119. Please try re-compiling or re-installing\nthe module (for instance, using `npm rebuild` or `npm install`).\n    at process.func [as dlopen] (node:electron/js2c/asar_bundle:2:1869)\n",
		"electron-rebuild-sqlite", "unseen2: stored, another system")
	h.ask("az-refresh/windows-storage", "switchyard", "windows", "az storage blob upload --account-name switchyardartifacts -c releases -f dist\\switchyard.zip --auth-mode login",
		crlf("ERROR: AADSTS700082: The refresh token has expired due to inactivity. The token was issued on 2024-12-02T10:01:47.1120034Z and was inactive for 90.00:00:00. Trace ID: 0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d Correlation ID: 5e6f7a8b-9c0d-4e1f-a2b3-c4d5e6f7a8b9 Timestamp: 2025-03-04 08:12:40Z\nInteractive authentication is needed. Please run:\naz login --scope https://storage.azure.com/.default\n"),
		"az-refresh-expired-win", "unseen2: stored, another command, CRLF")
	h.ask("selinux-volume-z/podman", "switchyard", "linux", "podman run --rm -v ./fixtures:/fixtures switchyard-tests:dev pytest /fixtures",
		"ERROR: usage error: file or directory not found: /fixtures\n\n$ podman run --rm -v ./fixtures:/fixtures switchyard-tests:dev ls /fixtures\nls: cannot open directory '/fixtures': Permission denied\n",
		"selinux-volume-z", "unseen2: stored, another tool")
	h.ask("snowflake-jwt/windows", "quarry", "windows", "python scripts\\backfill.py --since 2025-01-01",
		crlf("Traceback (most recent call last):\n  File \"C:\\Users\\dev\\src\\quarry\\scripts\\backfill.py\", line 41, in <module>\n    conn = snowflake.connector.connect(**cfg)\n... 6 lines omitted ...\nsnowflake.connector.errors.DatabaseError: 250001 (08001): None: Failed to connect to DB: qq77001.us-east-1.snowflakecomputing.com:443. JWT token is invalid. [2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e]\n"),
		"snowflake-jwt", "unseen2: global note, another project, CRLF")
	h.ask("pandoc-pdf-engine/quarto", "quillmark", "darwin", "quarto render report.qmd --to pdf",
		"processing file: report.qmd\noutput file: report.knit.md\n\npandoc \n  to: latex\n  output-file: report.tex\n  standalone: true\n  pdf-engine: pdflatex\n\nrendering PDF\nERROR: pdflatex not found. Please select a different --pdf-engine or install pdflatex\n",
		"pandoc-pdf-engine", "unseen2: stored, another tool")
	h.ask("nvml-mismatch/gpustat", "lumen", "linux", "gpustat -cp",
		"Error on querying NVIDIA devices. Use --debug flag to see more details.\nError: pynvml.NVMLError_LibRmVersionMismatch: RM has detected an NVML/RM version mismatch.\n$ dmesg | tail -n 1\n[412203.118027] NVRM: API mismatch: the client has the version 535.216.01, but\nNVRM: this kernel module has the version 535.183.01.  Please\n",
		"nvml-mismatch", "unseen2: stored, another tool")
	h.ask("wrangler-nodejs-compat/dev", "paperkite", "darwin", "npx wrangler dev",
		"\n ⛅️ wrangler 3.80.4\n-------------------\n\n✘ [ERROR] Could not resolve \"buffer\"\n\n    node_modules/safe-buffer/index.js:3:21:\n      3 │ var buffer = require('buffer')\n        ╵                      ~~~~~~~~\n\n  The package \"buffer\" wasn't found on the file system but is built into node.\n  - Add the \"nodejs_compat\" compatibility flag to your project.\n\n",
		"wrangler-nodejs-compat", "unseen2: stored, another command")
	h.ask("brew-arm-prefix/upgrade", "mosswood", "darwin", "brew upgrade",
		"==> Upgrading 3 outdated packages:\ncocoapods 1.14.3 -> 1.15.2\nwatchman 2024.01.22.00 -> 2024.03.11.00\nnode 21.6.1 -> 21.7.1\nError: Cannot install in Homebrew on ARM processor in Intel default prefix (/usr/local)!\nPlease create a new installation in /opt/homebrew using one of the\n\"Alternative Installs\" from:\n  https://docs.brew.sh/Installation\n",
		"brew-arm-prefix", "unseen2: stored, another command")
	h.ask("mongo-authsource/mongosh", "switchyard", "darwin", "mongosh 'mongodb://root:secret@localhost:27017/audit'",
		"Current Mongosh Log ID:\t65704c1e8f1a2b3c4d5e6f70\nConnecting to:\t\tmongodb://<credentials>@localhost:27017/audit?directConnection=true&serverSelectionTimeoutMS=2000&appName=mongosh+2.1.1\nMongoServerError: Authentication failed.\n",
		"mongo-authsource", "unseen2: stored, another tool")
	h.ask("jupyter-kernel-venv/lab", "lumen", "darwin", "jupyter lab --no-browser",
		"[I 2023-03-02 10:14:07.511 ServerApp] Jupyter Server 2.3.0 is running at:\n[I 2023-03-02 10:14:07.511 ServerApp] http://localhost:8888/lab?token=...\n[E 2023-03-02 10:15:22.903 ServerApp] Failed to start kernel\n    Traceback (most recent call last):\n      File \"/Users/kim/code/lumen/.venv/lib/python3.11/site-packages/jupyter_server/services/kernels/kernelmanager.py\", line 217, in _async_start_kernel\n        kernel_id = await self.pinned_superclass._async_start_kernel(self, **kwargs)\n... 12 lines omitted ...\n    FileNotFoundError: [Errno 2] No such file or directory: '/Users/kim/code/lumen/.venv-old/bin/python'\n[W 2023-03-02 10:15:22.905 ServerApp] 500 POST /api/sessions (::1): Failed to start kernel\n",
		"jupyter-kernel-venv", "unseen2: stored, another command")
	h.ask("pyspark-worker-python/35", "tidewater", "linux", "spark-submit --master yarn jobs/refund_rollup.py",
		"24/06/11 02:10:44 WARN TaskSetManager: Lost task 3.0 in stage 0.0 (TID 3) (ip-10-0-3-40.eu-west-1.compute.internal executor 1): org.apache.spark.api.python.PythonException: Traceback (most recent call last):\n  File \"/mnt/yarn/usercache/hadoop/appcache/application_1718069981234_0007/container_1718069981234_0007_01_000002/pyspark.zip/pyspark/worker.py\", line 1100, in main\n    raise PySparkRuntimeError(\npyspark.errors.exceptions.base.PySparkRuntimeError: [PYTHON_VERSION_MISMATCH] Python in worker has different version (3, 9) than that in driver 3.11, PySpark cannot run with different minor versions.\nPlease check environment variables PYSPARK_PYTHON and PYSPARK_DRIVER_PYTHON are correctly set.\n",
		"pyspark-worker-python", "unseen2: stored, newer wording")
	h.ask("rabbit-guest/amqplib", "switchyard", "linux", "docker compose logs notifier --tail 5",
		"notifier-1  | connecting to amqp://guest:***@broker:5672/\nnotifier-1  | Error: Handshake terminated by server: 403 (ACCESS-REFUSED) with message \"ACCESS_REFUSED - Login was refused using authentication mechanism PLAIN. For details see the broker logfile.\"\nnotifier-1  |     at afterStartOk (/app/node_modules/amqplib/lib/connection.js:232:12)\nnotifier-1  |     at /app/node_modules/amqplib/lib/connection.js:162:12\nnotifier-1 exited with code 1\n",
		"rabbit-guest-localhost", "unseen2: stored, another tool")
	h.ask("choco-elevated/git", "mosswood", "windows", "choco install -y git",
		crlf("Chocolatey v2.2.2\nInstalling the following packages:\ngit\nBy installing, you accept licenses for the packages.\nAccess to the path 'C:\\ProgramData\\chocolatey\\lib-bad' is denied.\n\nChocolatey installed 0/1 packages. 1 packages failed.\n See the log for details (C:\\ProgramData\\chocolatey\\logs\\chocolatey.log).\n"),
		"choco-elevated", "unseen2: stored, short tail, CRLF")
}
